// Problem generators of the pooling family: windows 1-9, stride 1-3, padding up to half the window.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

rc::Gen<Problem> pool_gen(const std::string& op, const GenContext& ctx) {
  return rc::gen::exec([ctx, op] {
    const auto stride = pick<int64_t>({2, 1, 3});  // shrinks to the default, 2
    const int64_t kh = *small(2, 9), kw = *small(2, 9);
    const int64_t ph = *small(0, kh / 2), pw = *small(0, kw / 2);
    // h and w drawn apart, or in one problem of four both across tile boundaries: a plane of several
    // tiles each way, whose tiles take their halos from their neighbours (max_pool2d_bwd's `tiles`)
    const bool across = *pick<bool>({false, false, false, true});
    const auto side = [&] { return across ? *tile_dim(ctx, 65) : *dim(ctx, 65); };
    const int64_t h = std::max(side(), kh - 2 * ph), w = std::max(side(), kw - 2 * pw);
    Attrs a{{"n", *small(1, 3)}, {"c", *small(1, 5)}, {"h", h},        {"w", w},   {"kh", kh},
            {"kw", kw},          {"sh", *stride},     {"sw", *stride}, {"ph", ph}, {"pw", pw}};
    if (op == "avg_pool2d") a["cip"] = *pick<int64_t>({1, 0});  // shrinks to the default, 1
    return fit_budget(op, a, {{"h", std::max<int64_t>(kh - 2 * ph, 1)}, {"w", std::max<int64_t>(kw - 2 * pw, 1)}, {"c", 1}}, ctx.budget);
  });
}

rc::Gen<Problem> gap_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] {
    Attrs a{{"n", *small(1, 3)}, {"c", *dim(ctx, 65)}, {"h", *dim(ctx, 65)}, {"w", *dim(ctx, 65)}};
    return fit_budget("global_avg_pool", a, {{"h", 1}, {"w", 1}, {"c", 1}}, ctx.budget);
  });
}

}  // namespace

void add_pooling_gens(std::map<std::string, GenFactory>& g) {
  g["max_pool2d"] = [](const GenContext& c) { return pool_gen("max_pool2d", c); };
  g["max_pool2d_bwd"] = same_as("max_pool2d_bwd", g["max_pool2d"]);
  g["avg_pool2d"] = [](const GenContext& c) { return pool_gen("avg_pool2d", c); };
  g["avg_pool2d_bwd"] = same_as("avg_pool2d_bwd", g["avg_pool2d"]);
  g["global_avg_pool"] = gap_gen;
  g["global_avg_pool_bwd"] = same_as("global_avg_pool_bwd", gap_gen);
}

}  // namespace plumbline::gen
