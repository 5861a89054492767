// Convolution family: conv2d forward, backward-data and backward-weight (NCHW, weights [K, C/g, R, S]).
#include "core/ops/families.hpp"

namespace plumbline {

namespace {

struct ConvDims {
  int64_t n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q;
};

// Output size along one axis; DESIGN.md: P = floor((H + 2ph - dh(R-1) - 1)/sh) + 1.
int64_t out_size(const Problem& pr, const char* axis, int64_t in, int64_t pad, int64_t dil, int64_t ker, int64_t stride) {
  // Attributes are below 2^40 (the parser's bound): the extent's product needs 128 bits, nothing else.
  const __int128 extent = static_cast<__int128>(dil) * (ker - 1) + 1;
  require(extent <= in + 2 * pad, pr,
          std::string("dilated kernel extent along ") + axis + " (" + std::to_string(static_cast<int64_t>(std::min<__int128>(extent, INT64_MAX))) +
              ") is larger than the padded input (" + std::to_string(in + 2 * pad) + ")");
  return static_cast<int64_t>((in + 2 * pad - extent) / stride + 1);
}

ConvDims conv_dims(const Problem& p) {
  ConvDims d{p.i("n"),  p.i("c"),  p.i("h"),  p.i("w"),  p.i("k"),  p.i("r"), p.i("s"), p.i("sh"),
             p.i("sw"), p.i("ph"), p.i("pw"), p.i("dh"), p.i("dw"), p.i("g"), 0,        0};
  require_flag(p, "bias");
  require(d.c % d.g == 0, p, "channels c=" + std::to_string(d.c) + " not divisible by groups g=" + std::to_string(d.g));
  require(d.k % d.g == 0, p, "filters k=" + std::to_string(d.k) + " not divisible by groups g=" + std::to_string(d.g));
  d.p = out_size(p, "height", d.h, d.ph, d.dh, d.r, d.sh);
  d.q = out_size(p, "width", d.w, d.pw, d.dw, d.s, d.sw);
  return d;
}

double conv_flops(const ConvDims& d) { return 2.0 * d.n * d.k * d.p * d.q * (d.c / d.g) * d.r * d.s; }

Shape x_shape(const ConvDims& d) { return {d.n, d.c, d.h, d.w}; }
Shape w_shape(const ConvDims& d) { return {d.k, d.c / d.g, d.r, d.s}; }
Shape y_shape(const ConvDims& d) { return {d.n, d.k, d.p, d.q}; }

Signature conv2d_signature(const Problem& p) {
  const ConvDims d = conv_dims(p);
  Signature s;
  s.inputs = {{"x", x_shape(d)}, {"w", w_shape(d)}};
  if (p.i("bias")) s.inputs.push_back({"bias", Shape{d.k}});
  s.outputs = {{"y", y_shape(d)}};
  s.flops = conv_flops(d);
  return s;
}

Signature conv2d_bwd_data_signature(const Problem& p) {
  const ConvDims d = conv_dims(p);
  Signature s;
  s.inputs = {{"w", w_shape(d)}, {"d_y", y_shape(d)}};
  s.outputs = {{"d_x", x_shape(d)}};
  s.flops = conv_flops(d);
  return s;
}

Signature conv2d_bwd_weight_signature(const Problem& p) {
  const ConvDims d = conv_dims(p);
  Signature s;
  s.inputs = {{"x", x_shape(d)}, {"d_y", y_shape(d)}};
  s.outputs = {{"d_w", w_shape(d)}};
  if (p.i("bias")) s.outputs.push_back({"d_bias", Shape{d.k}});
  s.flops = conv_flops(d);
  return s;
}

std::vector<AttrSpec> conv_attrs() {
  return {int_attr("n", 1, 1, "batch"),
          int_attr("c", 1, 1, "input channels"),
          int_attr("h", 1, 1, "input height"),
          int_attr("w", 1, 1, "input width"),
          int_attr("k", 1, 1, "output channels (filters)"),
          int_attr("r", 1, 1, "kernel height"),
          int_attr("s", 1, 1, "kernel width"),
          int_attr("sh", 1, 1, "stride along height"),
          int_attr("sw", 1, 1, "stride along width"),
          int_attr("ph", 0, 0, "zero padding on top and bottom"),
          int_attr("pw", 0, 0, "zero padding on left and right"),
          int_attr("dh", 1, 1, "dilation along height"),
          int_attr("dw", 1, 1, "dilation along width"),
          int_attr("g", 1, 1, "groups (g = c = k: depthwise)"),
          flag_attr("bias", 0, "1: the forward adds bias[k]; bwd_weight also gives d_bias")};
}

}  // namespace

void add_conv_ops(std::vector<OpSpec>& ops) {
  ops.push_back({"conv2d", "conv", "y = conv2d(x, w) (+ bias): cross-correlation with stride, padding, dilation, groups", "",
                 with_dtype(conv_attrs()), conv2d_signature});
  ops.push_back({"conv2d_bwd_data", "conv", "d_x of conv2d given w and d_y", "conv2d", with_dtype(conv_attrs()), conv2d_bwd_data_signature});
  ops.push_back(
      {"conv2d_bwd_weight", "conv", "d_w (and d_bias) of conv2d given x and d_y", "conv2d", with_dtype(conv_attrs()), conv2d_bwd_weight_signature});
}

}  // namespace plumbline
