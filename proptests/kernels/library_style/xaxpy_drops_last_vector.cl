// xaxpy.cl with a planted bug: the last vector of z is never written.
__kernel void Xaxpy(const int n, const real_arg arg_alpha, const __global realV* restrict xgm, const __global realV* restrict ygm,
                    __global realV* zgm) {
  const real alpha = GetRealArg(arg_alpha);
  const int i = get_global_id(0);
  if (i < n / VW - 1) zgm[i] = alpha * xgm[i] + ygm[i];
}
