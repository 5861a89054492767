// Slices of the convolution family (check/sampling.hpp): each unit is one output plane or filter,
// the same operator at g=1 on the channels of its group, so the sum has the same terms and the error
// model the same depth (c/g*r*s, k/g*r*s, n*p*q).
//   conv2d: the plane y[n,k,:,:] from x[n, group of k] and w[k] (and bias[k]);
//   conv2d_bwd_data: the plane d_x[n,c,:,:] from w[group of c, c] and d_y[n, group of c];
//   conv2d_bwd_weight: the filter d_w[k,c',:,:] (and d_bias[k]) from x[:, c] and d_y[:, k].
#include <algorithm>

#include "check/sampling.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace plumbline::slicers {

namespace {

struct Dims {
  int64_t n, c, h, w, k, r, s, g, p, q, cg, kg;
  explicit Dims(const Problem& pr) : n(pr.i("n")), c(pr.i("c")), h(pr.i("h")), w(pr.i("w")), k(pr.i("k")), r(pr.i("r")), s(pr.i("s")), g(pr.i("g")) {
    const Shape y = signature_of(pr.as("conv2d")).outputs[0].shape;
    p = y[2], q = y[3], cg = c / g, kg = k / g;
  }
};

// Copies `count` consecutive floats from `from` at `at` into `to` at `to_at`.
void copy(const TensorF& from, int64_t at, TensorD& to, int64_t to_at, int64_t count) {
  std::copy(from.data.begin() + at, from.data.begin() + at + count, to.data.begin() + to_at);
}

std::vector<int64_t> run(int64_t first, int64_t count) {
  std::vector<int64_t> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) v[static_cast<size_t>(i)] = first + i;
  return v;
}

SlicePlan conv2d(const Problem& pr, const std::vector<TensorF>& in) {
  const Dims d(pr);
  const TensorF &x = in[0], &w = in[1];
  const bool bias = pr.i("bias");
  const Problem sub = pr.with("g", int64_t{1}).with("n", int64_t{1}).with("c", d.cg).with("k", int64_t{1});
  SliceKind kind{"planes of y", {d.n, d.k}, signature_of(sub).flops, signature_of(sub).bytes(), {}};
  // Planes of one image and group share its x (most of a slice): their filters gathered into one k.
  kind.cut_many = [&in, &x, &w, d, sub, bias](const std::vector<int64_t>& units) {
    const int64_t ni = units[0] / d.k, group = units[0] % d.k / d.kg, plane = d.h * d.w, taps = d.cg * d.r * d.s;
    const int64_t many = static_cast<int64_t>(units.size());
    Slice s{sub.with("k", many), {TensorD(Shape{1, d.cg, d.h, d.w}), TensorD(Shape{many, d.cg, d.r, d.s})}, {{}}};
    copy(x, (ni * d.c + group * d.cg) * plane, s.inputs[0], 0, d.cg * plane);
    if (bias) s.inputs.push_back(TensorD(Shape{many}));
    for (int64_t f = 0; f < many; ++f) {
      const int64_t u = units[static_cast<size_t>(f)], ki = u % d.k;
      if (u / d.k != ni || ki / d.kg != group) throw Error("planes of y from several images or groups in one slice");
      copy(w, ki * taps, s.inputs[1], f * taps, taps);
      if (bias) s.inputs[2][f] = in[2][ki];
      const std::vector<int64_t> at = run(u * d.p * d.q, d.p * d.q);
      s.at[0].insert(s.at[0].end(), at.begin(), at.end());
    }
    return s;
  };
  kind.cut = [cut_many = kind.cut_many](int64_t u) { return cut_many({u}); };
  kind.unit_of = [d](size_t, int64_t flat) { return flat / (d.p * d.q); };
  kind.together = d.kg;  // unit n k + k' over kg: the image and the group
  const double b = bias ? largest_magnitude(in[2]) : 0.0;
  return {{kind}, static_cast<double>(d.cg * d.r * d.s) * largest_magnitude(x) * largest_magnitude(w) + b};
}

SlicePlan conv2d_bwd_data(const Problem& pr, const std::vector<TensorF>& in) {
  const Dims d(pr);
  const TensorF &w = in[0], &dy = in[1];
  const Problem sub = pr.with("g", int64_t{1}).with("n", int64_t{1}).with("c", int64_t{1}).with("k", d.kg);
  SliceKind kind{"planes of d_x", {d.n, d.c}, signature_of(sub).flops, signature_of(sub).bytes(), {}};
  kind.cut = [&w, &dy, d, sub](int64_t u) {
    const int64_t ni = u / d.c, ci = u % d.c, group = ci / d.cg, cl = ci % d.cg, taps = d.r * d.s, plane = d.p * d.q;
    Slice s{sub, {TensorD(Shape{d.kg, 1, d.r, d.s}), TensorD(Shape{1, d.kg, d.p, d.q})}, {run(u * d.h * d.w, d.h * d.w)}};
    for (int64_t kk = 0; kk < d.kg; ++kk) copy(w, ((group * d.kg + kk) * d.cg + cl) * taps, s.inputs[0], kk * taps, taps);
    copy(dy, (ni * d.k + group * d.kg) * plane, s.inputs[1], 0, d.kg * plane);
    return s;
  };
  return {{kind}, static_cast<double>(d.kg * d.r * d.s) * largest_magnitude(w) * largest_magnitude(dy)};
}

SlicePlan conv2d_bwd_weight(const Problem& pr, const std::vector<TensorF>& in) {
  const Dims d(pr);
  const TensorF &x = in[0], &dy = in[1];
  const bool bias = pr.i("bias");
  const Problem sub = pr.with("g", int64_t{1}).with("c", int64_t{1}).with("k", int64_t{1});
  SliceKind kind{"filters of d_w (with d_bias)", {d.k, d.cg}, signature_of(sub).flops, signature_of(sub).bytes(), {}};
  kind.cut = [&x, &dy, d, sub, bias](int64_t u) {
    const int64_t ki = u / d.cg, cl = u % d.cg, group = ki / d.kg, taps = d.r * d.s;
    Slice s{sub, {TensorD(Shape{d.n, 1, d.h, d.w}), TensorD(Shape{d.n, 1, d.p, d.q})}, {run(u * taps, taps)}};
    for (int64_t ni = 0; ni < d.n; ++ni) {
      copy(x, (ni * d.c + group * d.cg + cl) * d.h * d.w, s.inputs[0], ni * d.h * d.w, d.h * d.w);
      copy(dy, (ni * d.k + ki) * d.p * d.q, s.inputs[1], ni * d.p * d.q, d.p * d.q);
    }
    if (bias) s.at.push_back({ki});
    return s;
  };
  const double terms = static_cast<double>(d.n * d.p * d.q);
  return {{kind}, terms * largest_magnitude(dy) * std::max(largest_magnitude(x), 1.0)};
}

}  // namespace

void add_conv(std::map<std::string, Slicer>& m) {
  m["conv2d"] = conv2d;
  m["conv2d_bwd_data"] = conv2d_bwd_data;
  m["conv2d_bwd_weight"] = conv2d_bwd_weight;
}

}  // namespace plumbline::slicers
