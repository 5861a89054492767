// Problem generators of the softmax and loss family.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

GenFactory rows_gen(const std::string& op) {
  return [op](const GenContext& ctx) {
    return rc::gen::exec([ctx, op] {
      Attrs a{{"m", *dim(ctx, 129)}, {"n", *dim(ctx, 1025)}};
      return fit_budget(op, a, {{"m", 1}, {"n", 1}}, ctx.budget);
    });
  };
}

rc::Gen<Problem> cross_entropy_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] {
    Attrs a{{"b", *dim(ctx, 129)}, {"c", *dim(ctx, 1025)}, {"labels", *choice({"index", "soft"})}};
    return fit_budget("cross_entropy", a, {{"b", 1}, {"c", 1}}, ctx.budget);
  });
}

}  // namespace

void add_softmax_gens(std::map<std::string, GenFactory>& g) {
  g["softmax"] = rows_gen("softmax");
  g["softmax_bwd"] = same_as("softmax_bwd", g["softmax"]);
  g["log_softmax"] = rows_gen("log_softmax");
  g["log_softmax_bwd"] = same_as("log_softmax_bwd", g["log_softmax"]);
  g["cross_entropy"] = cross_entropy_gen;
  g["cross_entropy_bwd"] = same_as("cross_entropy_bwd", cross_entropy_gen);
}

}  // namespace plumbline::gen
