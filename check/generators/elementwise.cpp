// Problem generators of the elementwise family.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

rc::Gen<Problem> act_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] {
    Attrs a{{"n", *dim(ctx, 4099)}, {"act", *choice({"relu", "none", "gelu_tanh", "gelu_erf", "silu", "sigmoid", "tanh"})}};
    return fit_budget("act", a, {{"n", 1}}, ctx.budget);
  });
}

GenFactory flat_gen(const std::string& op) {
  return [op](const GenContext& ctx) {
    return rc::gen::exec([ctx, op] { return fit_budget(op, {{"n", *dim(ctx, 4099)}}, {{"n", 1}}, ctx.budget); });
  };
}

rc::Gen<Problem> bias_add_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] { return fit_budget("bias_add", {{"m", *dim(ctx, 129)}, {"n", *dim(ctx, 1025)}}, {{"m", 1}, {"n", 1}}, ctx.budget); });
}

}  // namespace

void add_elementwise_gens(std::map<std::string, GenFactory>& g) {
  g["act"] = act_gen;
  g["act_bwd"] = same_as("act_bwd", act_gen);
  g["add"] = flat_gen("add");
  g["mul"] = flat_gen("mul");
  g["bias_add"] = bias_add_gen;
  g["bias_add_bwd"] = same_as("bias_add_bwd", bias_add_gen);
}

}  // namespace plumbline::gen
