// Problem generators of the reductions and shape family: tall, wide and square matrices, and rows long
// enough to span several of a reduction's chunks.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

GenFactory matrix_gen(const std::string& op, bool with_over) {
  return [op, with_over](const GenContext& ctx) {
    return rc::gen::exec([ctx, op, with_over] {
      // Rows up to 16385 long: the split variant's 8192-element chunks have boundaries to reach.
      Attrs a{{"m", *dim(ctx, 1025)}, {"n", *dim(ctx, 16385)}};
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
