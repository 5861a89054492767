// An activation that never finishes: cli_test checks that the watchdog calls it [hung], with a repro,
// and that the run goes on.
__kernel void hang(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  int j = 0;
  while (x[0] + (float)j != -3.0e38f) {  // never true for the values checks draw
    if (i < n) y[i] = (float)j;
    j = (j + 1) & 3;
  }
}
