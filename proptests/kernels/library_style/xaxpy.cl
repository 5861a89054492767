// z = alpha * x + y over VW-wide vectors: the third file of the program (after common.cl and
// vectors.cl, as the library's host code concatenates them). `add` with alpha = 1.
__kernel void Xaxpy(const int n, const real_arg arg_alpha, const __global realV* restrict xgm, const __global realV* restrict ygm,
                    __global realV* zgm) {
  const real alpha = GetRealArg(arg_alpha);
  const int i = get_global_id(0);
  if (i < n / VW) zgm[i] = alpha * xgm[i] + ygm[i];
}
