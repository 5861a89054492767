#include "leaky_relu.hpp"

#include "check/extend.hpp"
#include "check/generators/common.hpp"
#include "core/ops/families.hpp"

using namespace plumbline;

void register_leaky_relu() {
  OperatorExtension op;
  // The operator: its attributes and the signature that infers every tensor's shape.
  op.spec = {"leaky_relu",
             "example",
             "y = x where x > 0, else slope * x",
             "",
             {int_attr("n", 1, 1, "elements"), float_attr("slope", 0.01, "the slope below zero")},
             [](const Problem& p) {
               Signature s;
               s.inputs = {{"x", Shape{p.i("n")}}};
               s.outputs = {{"y", Shape{p.i("n")}}};
               s.flops = 2.0 * static_cast<double>(p.i("n"));
               return s;
             }};
  // The reference, in double, with Eigen (NaN > 0 is false: NaN stays NaN through slope * x).
  op.reference = [](const Problem& p, const std::vector<TensorD>& in) {
    TensorD y(in[0].shape);
    const auto x = in[0].matrix(1, in[0].numel()).array();
    y.matrix(1, y.numel()).array() = (x > 0).select(x, p.f("slope") * x);
    return std::vector<TensorD>{y};
  };
  // A float evaluation rounds the slope to float and the product once: within 2 ulps of |y|.
  op.error_model = [](const Problem&, const std::vector<TensorD>&, const std::vector<TensorD>&, bool) {
    return std::vector<ErrorModel>{ErrorModel{false, 0, 2}};
  };
  // Problems: n over awkward sizes and the plan's tile boundaries, a few slopes.
  op.generator = [](const GenContext& ctx) {
    return rc::gen::exec([ctx] {
      gen::Attrs a{{"n", *gen::dim(ctx, 4099)}, {"slope", *gen::pick<double>({0.01, 0.2, 1.0 / 3})}};
      return gen::fit_budget("leaky_relu", a, {{"n", 1}}, ctx.budget);
    });
  };
  register_operator(std::move(op));
}
