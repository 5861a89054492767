// xaxpy.cl with a planted bug: the last vector of z is never written.
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
  if (i < n / VW - 1) zgm[i] = alpha * xgm[i] + ygm[i];
}
