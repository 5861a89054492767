// Problem generators of the GEMM family.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

// No batch (shrinks there) or a batch of 1-4.
rc::Gen<int64_t> batch_gen() {
  const auto none = rc::gen::just<int64_t>(0);
  return mix<int64_t>({none, none, none, small(1, 4), small(1, 4)});
}

// m, n and k: independent sizes, or in one problem of four all three across tile boundaries (a
// work-group's full tile, its last slab quads included; shrinks toward the independent sizes).
rc::Gen<int64_t> side_gen(const GenContext& ctx, bool across) { return across ? tile_dim(ctx, 129) : dim(ctx, 129); }
rc::Gen<bool> across_gen() { return pick<bool>({false, false, false, true}); }

rc::Gen<Problem> matmul_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] {
    const bool across = *across_gen();
    Attrs a{{"batch", *batch_gen()},       {"m", *side_gen(ctx, across)}, {"k", *side_gen(ctx, across)},
            {"n", *side_gen(ctx, across)}, {"ta", *small(0, 1)},          {"tb", *small(0, 1)}};
    return fit_budget("matmul", a, {{"m", 1}, {"n", 1}, {"k", 1}, {"batch", 1}}, ctx.budget);
  });
}

rc::Gen<Problem> gemm_bias_act_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] {
    const int64_t batch = *batch_gen();
    const bool across = *across_gen();
    Attrs a{{"batch", batch},
            {"m", *side_gen(ctx, across)},
            {"k", *side_gen(ctx, across)},
            {"n", *side_gen(ctx, across)},
            {"act", *choice(activation_kinds())},
            {"bshared", batch > 0 ? *small(0, 1) : int64_t{0}}};
    return fit_budget("gemm_bias_act", a, {{"m", 1}, {"n", 1}, {"k", 1}, {"batch", 1}}, ctx.budget);
  });
}

}  // namespace

void add_gemm_gens(std::map<std::string, GenFactory>& g) {
  g["matmul"] = matmul_gen;
  g["gemm_bias_act"] = gemm_bias_act_gen;
  g["gemm_bias_act_bwd"] = same_as("gemm_bias_act_bwd", gemm_bias_act_gen);
}

}  // namespace plumbline::gen
