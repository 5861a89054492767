// Graph-only operators: leaves (var, fill) and data movement the rules need (reshape, permute,
// broadcasts, flip_kernel, neg, scale). Evaluated here, exactly in any scalar type, on the host.
#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "egraph/ops/common.hpp"

namespace plumbline::graph {
namespace {

AttrSpec text_attr(const char* name, const char* def, const char* doc) { return AttrSpec{name, AttrKind::Enum, std::string(def), 0, {}, doc}; }
AttrSpec int_attr(const char* name, int64_t def, int64_t min, const char* doc) { return AttrSpec{name, AttrKind::Int, def, min, {}, doc}; }
AttrSpec float_attr(const char* name, double def, const char* doc) { return AttrSpec{name, AttrKind::Float, def, 0, {}, doc}; }

// Sets eval_d and eval_f from one generic lambda (in, attrs, out_shape) -> Tensor<T>.
template <class F>
void native(GraphOp& op, F f) {
  op.eval_d = [f](const std::vector<TensorD>& in, const Attrs& a, const Shape& s) { return f(in, a, s); };
  op.eval_f = [f](const std::vector<TensorF>& in, const Attrs& a, const Shape& s) { return f(in, a, s); };
}

GraphOp data_op(const std::string& name, int args, std::vector<AttrSpec> attrs, const std::string& summary, decltype(GraphOp::shape) shape) {
  GraphOp op;
  op.name = name;
  op.min_args = op.max_args = args;
  op.attrs = std::move(attrs);
  op.summary = summary;
  op.shape = std::move(shape);
  return op;
}

}  // namespace

// A permutation "1,0,2": output dimension i is input dimension perm[i] (0-based).
static std::vector<int> permutation(const std::string& text, int rank) {
  std::vector<int> perm;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const size_t end = text.find(',', start);
    const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) throw Error("permute: malformed perm '" + text + "' (e.g. 1,0,2)");
    perm.push_back(std::stoi(part));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::vector<int> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> iota(static_cast<size_t>(rank));
  std::iota(iota.begin(), iota.end(), 0);
  if (sorted != iota) throw Error("permute: perm '" + text + "' is not a permutation of 0.." + std::to_string(rank - 1));
  return perm;
}

void add_data_graph_ops(std::vector<GraphOp>& ops) {
  GraphOp var = data_op("var", 0, {text_attr("name", "x", "input name"), text_attr("shape", "1", "dimensions, e.g. 2,3")}, "a graph input",
                        [](const std::vector<Shape>&, const Attrs& a) { return parse_shape_text(attr_s(a, "shape")); });
  var.eval_d = [](const std::vector<TensorD>&, const Attrs& a, const Shape&) -> TensorD {
    throw Error("graph input '" + attr_s(a, "name") + "' has no value bound");
  };
  var.eval_f = [](const std::vector<TensorF>&, const Attrs& a, const Shape&) -> TensorF {
    throw Error("graph input '" + attr_s(a, "name") + "' has no value bound");
  };
  ops.push_back(var);

  GraphOp fill = data_op("fill", 0, {text_attr("shape", "1", "dimensions"), float_attr("value", 0.0, "every element")}, "a constant tensor",
                         [](const std::vector<Shape>&, const Attrs& a) { return parse_shape_text(attr_s(a, "shape")); });
  native(fill, [](const auto& in, const Attrs& a, const Shape& s) {
    using T = typename std::decay_t<decltype(in[0].data)>::value_type;
    return Tensor<T>(s, static_cast<T>(attr_f(a, "value")));
  });
  ops.push_back(fill);

  auto same = [](const std::vector<Shape>& in, const Attrs&) { return in[0]; };
  GraphOp neg = data_op("neg", 1, {}, "y = -x", same);
  neg.flops_per_element = 1;
  native(neg, [](const auto& in, const Attrs&, const Shape&) {
    auto y = in[0];
    for (auto& v : y.data) v = -v;
    return y;
  });
  neg.vjp = [](Graph& g, const std::vector<int>&, int, int dy, const Attrs&) { return std::vector<int>{g.add("neg", {dy})}; };
  ops.push_back(neg);

  GraphOp scale = data_op("scale", 1, {float_attr("factor", 1.0, "multiplier")}, "y = factor * x", same);
  scale.flops_per_element = 1;
  native(scale, [](const auto& in, const Attrs& a, const Shape&) {
    auto y = in[0];
    using T = typename std::decay_t<decltype(y.data)>::value_type;
    for (auto& v : y.data) v = static_cast<T>(attr_f(a, "factor")) * v;
    return y;
  });
  scale.vjp = [](Graph& g, const std::vector<int>&, int, int dy, const Attrs& a) { return std::vector<int>{g.add("scale", {dy}, a)}; };
  ops.push_back(scale);

  GraphOp reshape = data_op("reshape", 1, {text_attr("shape", "1", "new dimensions, same element count")},
                            "the same elements in row-major order, another shape", [](const std::vector<Shape>& in, const Attrs& a) {
                              const Shape s = parse_shape_text(attr_s(a, "shape"));
                              if (s.numel() != in[0].numel())
                                throw Error("reshape: " + in[0].str() + " has " + std::to_string(in[0].numel()) + " elements, " + s.str() + " has " +
                                            std::to_string(s.numel()));
                              return s;
                            });
  reshape.is_view = true;
  native(reshape, [](const auto& in, const Attrs&, const Shape& s) {
    auto y = in[0];
    y.shape = s;
    return y;
  });
  reshape.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs&) {
    return std::vector<int>{g.add("reshape", {dy}, {{"shape", shape_text(g.node(x[0]).shape)}})};
  };
  ops.push_back(reshape);

  GraphOp permute = data_op("permute", 1, {text_attr("perm", "0", "output dimension i is input dimension perm[i]")}, "dimensions reordered",
                            [](const std::vector<Shape>& in, const Attrs& a) {
                              const auto perm = permutation(attr_s(a, "perm"), in[0].rank());
                              std::vector<int64_t> d;
                              for (int p : perm) d.push_back(in[0][p]);
                              return Shape(d);
                            });
  native(permute, [](const auto& in, const Attrs& a, const Shape& s) {
    const auto& x = in[0];
    const int r = x.shape.rank();
    const auto perm = permutation(attr_s(a, "perm"), r);
    auto y = x;
    y.shape = s;
    std::vector<int64_t> in_stride(static_cast<size_t>(r), 1);
    for (int i = r - 2; i >= 0; --i) in_stride[static_cast<size_t>(i)] = in_stride[static_cast<size_t>(i + 1)] * x.shape[i + 1];
    std::vector<int64_t> idx(static_cast<size_t>(r), 0);
    for (int64_t o = 0; o < y.numel(); ++o) {
      int64_t src = 0;
      for (int i = 0; i < r; ++i) src += idx[static_cast<size_t>(i)] * in_stride[static_cast<size_t>(perm[static_cast<size_t>(i)])];
      y[o] = x[src];
      for (int i = r - 1; i >= 0; --i) {  // next output index, row-major
        if (++idx[static_cast<size_t>(i)] < s[i]) break;
        idx[static_cast<size_t>(i)] = 0;
      }
    }
    return y;
  });
  permute.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) {
    const auto perm = permutation(attr_s(a, "perm"), g.node(x[0]).shape.rank());
    std::vector<int64_t> inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
    std::string text;
    for (size_t i = 0; i < inverse.size(); ++i) text += (i ? "," : "") + std::to_string(inverse[i]);
    return std::vector<int>{g.add("permute", {dy}, {{"perm", text}})};
  };
  ops.push_back(permute);

  // [K, C/g, R, S] -> [C, K/g, R, S], flipped in space: the kernel of conv2d_bwd_data as a forward conv.
  GraphOp flip = data_op("flip_kernel", 1, {int_attr("g", 1, 1, "groups")}, "conv weights transposed per group and rotated 180 degrees",
                         [](const std::vector<Shape>& in, const Attrs& a) {
                           need_rank("flip_kernel", in, 0, {4});
                           const int64_t g = attr_i(a, "g");
                           if (in[0][0] % g)
                             throw Error("flip_kernel: K = " + std::to_string(in[0][0]) + " is not a multiple of g = " + std::to_string(g));
                           return Shape{in[0][1] * g, in[0][0] / g, in[0][2], in[0][3]};
                         });
  native(flip, [](const auto& in, const Attrs& a, const Shape& s) {
    const auto& w = in[0];
    auto y = w;
    y.shape = s;
    const int64_t g = attr_i(a, "g"), K = w.shape[0], Cg = w.shape[1], R = w.shape[2], S = w.shape[3], Kg = K / g;
    for (int64_t k = 0; k < K; ++k)
      for (int64_t c = 0; c < Cg; ++c)
        for (int64_t r = 0; r < R; ++r)
          for (int64_t q = 0; q < S; ++q) {
            const int64_t group = k / Kg, oc = group * Cg + c, ok = k % Kg;
            y[((oc * Kg + ok) * R + (R - 1 - r)) * S + (S - 1 - q)] = w[((k * Cg + c) * R + r) * S + q];
          }
    return y;
  });
  flip.vjp = [](Graph& g, const std::vector<int>&, int, int dy, const Attrs& a) { return std::vector<int>{g.add("flip_kernel", {dy}, a)}; };
  ops.push_back(flip);

  GraphOp rows = data_op("row_broadcast", 1, {int_attr("n", 1, 1, "columns"), float_attr("scale", 1.0, "multiplier")}, "y[i,j] = scale * c[i]",
                         [](const std::vector<Shape>& in, const Attrs& a) {
                           need_rank("row_broadcast", in, 0, {1});
                           return Shape{in[0][0], attr_i(a, "n")};
                         });
  native(rows, [](const auto& in, const Attrs& a, const Shape& s) {
    using T = typename std::decay_t<decltype(in[0].data)>::value_type;
    Tensor<T> y(s);
    for (int64_t i = 0; i < s[0]; ++i)
      for (int64_t j = 0; j < s[1]; ++j) y[i * s[1] + j] = static_cast<T>(attr_f(a, "scale")) * in[0][i];
    return y;
  });
  rows.vjp = [](Graph& g, const std::vector<int>&, int, int dy, const Attrs& a) {
    int d = g.add("sum", {dy}, {{"over", std::string("row")}});
    if (attr_f(a, "scale") != 1.0) d = g.add("scale", {d}, {{"factor", attr_f(a, "scale")}});
    return std::vector<int>{d};
  };
  ops.push_back(rows);

  GraphOp chans = data_op("channel_broadcast", 1, {int_attr("n", 1, 1, "batch"), int_attr("h", 1, 1, "height"), int_attr("w", 1, 1, "width")},
                          "y[n,c,h,w] = v[c]", [](const std::vector<Shape>& in, const Attrs& a) {
                            need_rank("channel_broadcast", in, 0, {1});
                            return Shape{attr_i(a, "n"), in[0][0], attr_i(a, "h"), attr_i(a, "w")};
                          });
  native(chans, [](const auto& in, const Attrs&, const Shape& s) {
    using T = typename std::decay_t<decltype(in[0].data)>::value_type;
    Tensor<T> y(s);
    const int64_t hw = s[2] * s[3];
    for (int64_t i = 0; i < y.numel(); ++i) y[i] = in[0][(i / hw) % s[1]];
    return y;
  });
  ops.push_back(chans);

  GraphOp expand = data_op("expand", 1, {text_attr("shape", "1", "dimensions"), float_attr("scale", 1.0, "multiplier")},
                           "every element = scale * s (s a scalar)", [](const std::vector<Shape>& in, const Attrs& a) {
                             need_rank("expand", in, 0, {0});
                             return parse_shape_text(attr_s(a, "shape"));
                           });
  native(expand, [](const auto& in, const Attrs& a, const Shape& s) {
    using T = typename std::decay_t<decltype(in[0].data)>::value_type;
    return Tensor<T>(s, static_cast<T>(attr_f(a, "scale")) * in[0][0]);
  });
  expand.vjp = [](Graph& g, const std::vector<int>&, int, int dy, const Attrs& a) {
    const Shape s = g.node(dy).shape;
    int flat = g.add("reshape", {dy}, {{"shape", shape_text(Shape{1, s.numel()})}});
    int d = g.add("sum", {flat}, {{"over", std::string("all")}});
    if (attr_f(a, "scale") != 1.0) d = g.add("scale", {d}, {{"factor", attr_f(a, "scale")}});
    return std::vector<int>{d};
  };
  ops.push_back(expand);
}

}  // namespace plumbline::graph
