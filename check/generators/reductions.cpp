// Problem generators of the reductions and shape family: tall, wide and square matrices.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

GenFactory matrix_gen(const std::string& op, bool with_over) {
  return [op, with_over](const GenContext& ctx) {
    return rc::gen::exec([ctx, op, with_over] {
      Attrs a{{"m", *dim(ctx, 1025)}, {"n", *dim(ctx, 1025)}};
      if (with_over) a["over"] = *choice({"all", "row"});
      return fit_budget(op, a, {{"m", 1}, {"n", 1}}, ctx.budget);
    });
  };
}

}  // namespace

void add_reduction_gens(std::map<std::string, GenFactory>& g) {
  g["sum"] = matrix_gen("sum", true);
  g["mean"] = matrix_gen("mean", true);
  g["transpose"] = matrix_gen("transpose", false);
}

}  // namespace plumbline::gen
