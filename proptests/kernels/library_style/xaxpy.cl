// z = alpha * x + y over VW-wide vectors (VW = 1, 2 or 4): the second file of the program, after
// common.cl, as the library's host code concatenates them. `add` with alpha = 1.
#ifndef VW
  #define VW 1
#endif
#if VW == 1
  typedef real realV;
#elif VW == 2
  typedef real2 realV;
#elif VW == 4
  typedef real4 realV;
#endif

__kernel void Xaxpy(const int n, const real_arg arg_alpha, const __global realV* restrict xgm, const __global realV* restrict ygm,
                    __global realV* zgm) {
  const real alpha = GetRealArg(arg_alpha);
  const int i = get_global_id(0);
  if (i < n / VW) zgm[i] = alpha * xgm[i] + ygm[i];
}
