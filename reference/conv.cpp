// References of the convolution family, written as the defining sums (direct loops): the ground truth
// that faster formulations (im2col, implicit GEMM, "full convolution") are checked against.
//   y[n,k,p,q] = bias[k] + sum_{c in group(k), r, s} x[n,c,p*sh-ph+r*dh, q*sw-pw+s*dw] * w[k,c',r,s]
// where positions outside the input read zero.
#include "core/registry.hpp"
#include "reference/families.hpp"

namespace plumbline {

namespace {

struct Conv {
  int64_t n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, cg, kg;
  explicit Conv(const Problem& pr)
      : n(pr.i("n")),
        c(pr.i("c")),
        h(pr.i("h")),
        w(pr.i("w")),
        k(pr.i("k")),
        r(pr.i("r")),
        s(pr.i("s")),
        sh(pr.i("sh")),
        sw(pr.i("sw")),
        ph(pr.i("ph")),
        pw(pr.i("pw")),
        dh(pr.i("dh")),
        dw(pr.i("dw")),
        g(pr.i("g")) {
    const Shape y = signature_of(pr.as("conv2d")).outputs[0].shape;
    p = y[2];
    q = y[3];
    cg = c / g;
    kg = k / g;
  }
  int64_t xi(int64_t ni, int64_t ci, int64_t hi, int64_t wi) const { return ((ni * c + ci) * h + hi) * w + wi; }
  int64_t wi(int64_t ki, int64_t cl, int64_t ri, int64_t si) const { return ((ki * cg + cl) * r + ri) * s + si; }
  int64_t yi(int64_t ni, int64_t ki, int64_t pi, int64_t qi) const { return ((ni * k + ki) * p + pi) * q + qi; }

  // Calls f(x index, w index, y index) for every (input, weight, output) triple of the sum.
  template <class F>
  void for_each_term(F&& f) const {
    for (int64_t ni = 0; ni < n; ++ni)
      for (int64_t ki = 0; ki < k; ++ki) {
        const int64_t group = ki / kg;
        for (int64_t pi = 0; pi < p; ++pi)
          for (int64_t qi = 0; qi < q; ++qi)
            for (int64_t cl = 0; cl < cg; ++cl)
              for (int64_t ri = 0; ri < r; ++ri) {
                const int64_t hi = pi * sh - ph + ri * dh;
                if (hi < 0 || hi >= h) continue;
                for (int64_t si = 0; si < s; ++si) {
                  const int64_t wj = qi * sw - pw + si * dw;
                  if (wj < 0 || wj >= w) continue;
                  f(xi(ni, group * cg + cl, hi, wj), wi(ki, cl, ri, si), yi(ni, ki, pi, qi));
                }
              }
      }
  }
};

template <class T>
std::vector<Tensor<T>> conv2d(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Conv cv(p);
  const Tensor<T>&x = in[0], &w = in[1];
  Tensor<T> y(Shape{cv.n, cv.k, cv.p, cv.q});
  if (p.i("bias"))
    for (int64_t i = 0; i < y.numel(); ++i) y[i] = in[2][(i / (cv.p * cv.q)) % cv.k];
  cv.for_each_term([&](int64_t xi, int64_t wi, int64_t yi) { y[yi] += x[xi] * w[wi]; });
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> conv2d_bwd_data(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Conv cv(p);
  const Tensor<T>&w = in[0], &dy = in[1];
  Tensor<T> dx(Shape{cv.n, cv.c, cv.h, cv.w});
  cv.for_each_term([&](int64_t xi, int64_t wi, int64_t yi) { dx[xi] += dy[yi] * w[wi]; });
  return moved(dx);
}

template <class T>
std::vector<Tensor<T>> conv2d_bwd_weight(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Conv cv(p);
  const Tensor<T>&x = in[0], &dy = in[1];
  Tensor<T> dw(Shape{cv.k, cv.cg, cv.r, cv.s});
  cv.for_each_term([&](int64_t xi, int64_t wi, int64_t yi) { dw[wi] += dy[yi] * x[xi]; });
  if (!p.i("bias")) return moved(dw);
  Tensor<T> dbias(Shape{cv.k});
  for (int64_t i = 0; i < dy.numel(); ++i) dbias[(i / (cv.p * cv.q)) % cv.k] += dy[i];
  return moved(dw, dbias);
}

}  // namespace

void add_conv_refs(std::vector<ReferenceOp>& ops) {
  ops.push_back({"conv2d", conv2d<double>, conv2d<float>});
  ops.push_back({"conv2d_bwd_data", conv2d_bwd_data<double>, conv2d_bwd_data<float>});
  ops.push_back({"conv2d_bwd_weight", conv2d_bwd_weight<double>, conv2d_bwd_weight<float>});
}

}  // namespace plumbline
