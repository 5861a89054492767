// Pooling family (NCHW): max_pool2d, avg_pool2d, global_avg_pool, forward and backward.
#include "core/ops/families.hpp"

namespace plumbline {

namespace {

std::vector<AttrSpec> pool_attrs(bool avg) {
  std::vector<AttrSpec> a{int_attr("n", 1, 1, "batch"),
                          int_attr("c", 1, 1, "channels"),
                          int_attr("h", 2, 1, "input height"),
                          int_attr("w", 2, 1, "input width"),
                          int_attr("kh", 2, 1, "window height"),
                          int_attr("kw", 2, 1, "window width"),
                          int_attr("sh", 2, 1, "stride along height"),
                          int_attr("sw", 2, 1, "stride along width"),
                          int_attr("ph", 0, 0, "padding on top and bottom (at most kh/2)"),
                          int_attr("pw", 0, 0, "padding on left and right (at most kw/2)")};
  if (avg) a.push_back(flag_attr("cip", 1, "count_include_pad: 1 divides by kh*kw, 0 by the window's input cells"));
  return a;
}

struct PoolDims {
  Shape x, y;
  double window;  // cells per window (a double: kh * kw may pass int64 for absurd attributes)
};

PoolDims pool_dims(const Problem& p) {
  const int64_t n = p.i("n"), c = p.i("c"), h = p.i("h"), w = p.i("w"), kh = p.i("kh"), kw = p.i("kw");
  const int64_t ph = p.i("ph"), pw = p.i("pw");
  // As PyTorch: padding beyond half the window would make windows that hold only padding.
  require(2 * ph <= kh, p, "padding ph=" + std::to_string(ph) + " exceeds half the window height kh=" + std::to_string(kh));
  require(2 * pw <= kw, p, "padding pw=" + std::to_string(pw) + " exceeds half the window width kw=" + std::to_string(kw));
  require(kh <= h + 2 * ph, p, "window height kh=" + std::to_string(kh) + " is larger than the padded input (" + std::to_string(h + 2 * ph) + ")");
  require(kw <= w + 2 * pw, p, "window width kw=" + std::to_string(kw) + " is larger than the padded input (" + std::to_string(w + 2 * pw) + ")");
  const int64_t oh = (h + 2 * ph - kh) / p.i("sh") + 1, ow = (w + 2 * pw - kw) / p.i("sw") + 1;
  return {Shape{n, c, h, w}, Shape{n, c, oh, ow}, static_cast<double>(kh) * static_cast<double>(kw)};
}

Signature max_pool_signature(const Problem& p) {
  const PoolDims d = pool_dims(p);
  Signature s;
  s.inputs = {{"x", d.x}};
  s.outputs = {{"y", d.y}};
  s.flops = static_cast<double>(d.y.numel()) * d.window;
  return s;
}

Signature max_pool_bwd_signature(const Problem& p) {
  const PoolDims d = pool_dims(p);
  Signature s;
  s.inputs = {{"x", d.x}, {"d_y", d.y}};
  s.outputs = {{"d_x", d.x}};
  s.flops = static_cast<double>(d.y.numel()) * d.window;
  return s;
}

Signature avg_pool_signature(const Problem& p) {
  require_flag(p, "cip");
  return max_pool_signature(p);
}

Signature avg_pool_bwd_signature(const Problem& p) {
  require_flag(p, "cip");
  const PoolDims d = pool_dims(p);
  Signature s;
  s.inputs = {{"d_y", d.y}};
  s.outputs = {{"d_x", d.x}};
  s.flops = static_cast<double>(d.y.numel()) * d.window;
  return s;
}

std::vector<AttrSpec> gap_attrs() {
  return {int_attr("n", 1, 1, "batch"), int_attr("c", 1, 1, "channels"), int_attr("h", 1, 1, "height"), int_attr("w", 1, 1, "width")};
}

Signature gap_signature(const Problem& p) {
  const int64_t n = p.i("n"), c = p.i("c");
  Signature s;
  s.inputs = {{"x", Shape{n, c, p.i("h"), p.i("w")}}};
  s.outputs = {{"y", Shape{n, c}}};
  s.flops = static_cast<double>(s.inputs[0].shape.numel());
  return s;
}

Signature gap_bwd_signature(const Problem& p) {
  Signature f = gap_signature(p);
  Signature s;
  s.inputs = {{"d_y", f.outputs[0].shape}};
  s.outputs = {{"d_x", f.inputs[0].shape}};
  s.flops = static_cast<double>(f.inputs[0].shape.numel());
  return s;
}

}  // namespace

void add_pooling_ops(std::vector<OpSpec>& ops) {
  ops.push_back({"max_pool2d", "pooling", "y = max over each window (padding never wins)", "", with_dtype(pool_attrs(false)), max_pool_signature});
  ops.push_back({"max_pool2d_bwd", "pooling", "d_x: each d_y to the first maximum of its window in scan order", "max_pool2d",
                 with_dtype(pool_attrs(false)), max_pool_bwd_signature});
  ops.push_back(
      {"avg_pool2d", "pooling", "y = mean over each window (count_include_pad attribute)", "", with_dtype(pool_attrs(true)), avg_pool_signature});
  ops.push_back({"avg_pool2d_bwd", "pooling", "d_x: each d_y spread evenly over its window", "avg_pool2d", with_dtype(pool_attrs(true)),
                 avg_pool_bwd_signature});
  ops.push_back({"global_avg_pool", "pooling", "y[n,c] = mean of x[n,c,:,:]", "", with_dtype(gap_attrs()), gap_signature});
  ops.push_back({"global_avg_pool_bwd", "pooling", "d_x[n,c,h,w] = d_y[n,c] / (h*w)", "global_avg_pool", with_dtype(gap_attrs()), gap_bwd_signature});
}

}  // namespace plumbline
