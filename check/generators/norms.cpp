// Problem generators of the normalization family.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

rc::Gen<double> eps_gen() { return pick<double>({1e-5, 1e-6, 1e-3, 0.1}); }

rc::Gen<Problem> group_norm_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] {
    const int64_t g = *mix<int64_t>({small(1, 8), small(1, 8), small(1, 8), pick<int64_t>({16, 32})});
    const int64_t cg = *small(1, 6);
    Attrs a{{"n", *small(1, 3)}, {"c", g * cg}, {"h", *dim(ctx, 65)}, {"w", *dim(ctx, 65)}, {"g", g}, {"eps", *eps_gen()}};
    return fit_budget("group_norm", a, {{"h", 1}, {"w", 1}, {"n", 1}}, ctx.budget);
  });
}

GenFactory rows_gen(const std::string& op) {
  return [op](const GenContext& ctx) {
    return rc::gen::exec([ctx, op] {
      Attrs a{{"m", *dim(ctx, 129)}, {"n", *dim(ctx, 1025)}, {"eps", *eps_gen()}};
      return fit_budget(op, a, {{"m", 1}, {"n", 1}}, ctx.budget);
    });
  };
}

}  // namespace

void add_norm_gens(std::map<std::string, GenFactory>& g) {
  g["group_norm"] = group_norm_gen;
  g["group_norm_bwd"] = same_as("group_norm_bwd", group_norm_gen);
  g["layer_norm"] = rows_gen("layer_norm");
  g["layer_norm_bwd"] = same_as("layer_norm_bwd", g["layer_norm"]);
  g["rms_norm"] = rows_gen("rms_norm");
  g["rms_norm_bwd"] = same_as("rms_norm_bwd", g["rms_norm"]);
}

}  // namespace plumbline::gen
