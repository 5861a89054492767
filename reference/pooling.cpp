// References of the pooling family (NCHW). Window (oh, ow) covers input rows oh*sh - ph .. + kh - 1 and
// columns ow*sw - pw .. + kw - 1; cells outside the input are padding: never a maximum, and counted in the
// average only when count_include_pad (cip) = 1.
#include <cmath>

#include "core/registry.hpp"
#include "reference/families.hpp"

namespace plumbline {

namespace {

struct Pool {
  int64_t planes, h, w, kh, kw, sh, sw, ph, pw, oh, ow;
  explicit Pool(const Problem& p)
      : planes(p.i("n") * p.i("c")),
        h(p.i("h")),
        w(p.i("w")),
        kh(p.i("kh")),
        kw(p.i("kw")),
        sh(p.i("sh")),
        sw(p.i("sw")),
        ph(p.i("ph")),
        pw(p.i("pw")) {
    oh = (h + 2 * ph - kh) / sh + 1;
    ow = (w + 2 * pw - kw) / sw + 1;
  }
  // Calls f(output index, vector of input indices in scan order (row-major within the window)).
  template <class F>
  void for_each_window(F&& f) const {
    std::vector<int64_t> cells;
    for (int64_t pl = 0; pl < planes; ++pl)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          cells.clear();
          for (int64_t a = 0; a < kh; ++a)
            for (int64_t b = 0; b < kw; ++b) {
              const int64_t r = i * sh - ph + a, c = j * sw - pw + b;
              if (r >= 0 && r < h && c >= 0 && c < w) cells.push_back((pl * h + r) * w + c);
            }
          f((pl * oh + i) * ow + j, cells);
        }
  }
};

// The first maximum in scan order; NaN counts as larger than any number (it propagates).
template <class T>
int64_t argmax(const Tensor<T>& x, const std::vector<int64_t>& cells) {
  int64_t best = cells.at(0);
  for (int64_t c : cells)
    if (!std::isnan(x[best]) && (x[c] > x[best] || std::isnan(x[c]))) best = c;
  return best;
}

template <class T>
std::vector<Tensor<T>> max_pool2d(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Pool pl(p);
  Tensor<T> y(signature_of(p).outputs[0].shape);
  pl.for_each_window([&](int64_t o, const std::vector<int64_t>& cells) { y[o] = in[0][argmax(in[0], cells)]; });
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> max_pool2d_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Pool pl(p);
  Tensor<T> dx(in[0].shape);
  pl.for_each_window([&](int64_t o, const std::vector<int64_t>& cells) { dx[argmax(in[0], cells)] += in[1][o]; });
  return moved(dx);
}

template <class T>
T divisor(const Problem& p, const Pool& pl, const std::vector<int64_t>& cells) {
  return static_cast<T>(p.i("cip") ? pl.kh * pl.kw : static_cast<int64_t>(cells.size()));
}

template <class T>
std::vector<Tensor<T>> avg_pool2d(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Pool pl(p);
  Tensor<T> y(signature_of(p).outputs[0].shape);
  pl.for_each_window([&](int64_t o, const std::vector<int64_t>& cells) {
    T s = 0;
    for (int64_t c : cells) s += in[0][c];
    y[o] = s / divisor<T>(p, pl, cells);
  });
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> avg_pool2d_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Pool pl(p);
  Tensor<T> dx(signature_of(p).outputs[0].shape);
  pl.for_each_window([&](int64_t o, const std::vector<int64_t>& cells) {
    const T share = in[0][o] / divisor<T>(p, pl, cells);
    for (int64_t c : cells) dx[c] += share;
  });
  return moved(dx);
}

template <class T>
std::vector<Tensor<T>> global_avg_pool(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t planes = p.i("n") * p.i("c"), hw = p.i("h") * p.i("w");
  Tensor<T> y(Shape{p.i("n"), p.i("c")});
  for (int64_t i = 0; i < planes; ++i) {
    T s = 0;
    for (int64_t j = 0; j < hw; ++j) s += in[0][i * hw + j];
    y[i] = s / static_cast<T>(hw);
  }
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> global_avg_pool_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t hw = p.i("h") * p.i("w");
  Tensor<T> dx(Shape{p.i("n"), p.i("c"), p.i("h"), p.i("w")});
  for (int64_t i = 0; i < dx.numel(); ++i) dx[i] = in[0][i / hw] / static_cast<T>(hw);
  return moved(dx);
}

}  // namespace

void add_pooling_refs(std::vector<ReferenceOp>& ops) {
  ops.push_back({"max_pool2d", max_pool2d<double>, max_pool2d<float>});
  ops.push_back({"max_pool2d_bwd", max_pool2d_bwd<double>, max_pool2d_bwd<float>});
  ops.push_back({"avg_pool2d", avg_pool2d<double>, avg_pool2d<float>});
  ops.push_back({"avg_pool2d_bwd", avg_pool2d_bwd<double>, avg_pool2d_bwd<float>});
  ops.push_back({"global_avg_pool", global_avg_pool<double>, global_avg_pool<float>});
  ops.push_back({"global_avg_pool_bwd", global_avg_pool_bwd<double>, global_avg_pool_bwd<float>});
}

}  // namespace plumbline
