// A parameter type made by a function-like macro, which plumbline's reading of typedefs does not
// expand: a plan declares it (`type real_t float`), else the launch is refused naming the type.
#define CONCAT(a, b) a##b
typedef CONCAT(flo, at) real_t;

__kernel void opaque_add(const int n, const __global real_t* a, const __global real_t* b, __global real_t* y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a[i] + b[i];
}
