// Problem generators of the convolution family: regular, grouped and depthwise; kernels up to 11x11,
// and now and then 15x15 to 17x17 (past the 256 taps conv2d_bwd_data stages at a time: mutants of its
// chunking survived without them); stride 1-3; dilation 1-3; ph and pw drawn apart.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

rc::Gen<Problem> conv_gen(const GenContext& ctx) {
  return rc::gen::exec([ctx] {
    const int64_t kind = *small(0, 2);  // 0: g = 1, 1: grouped, 2: depthwise (g = c = k)
    const int64_t g = kind == 0 ? 1 : *small(2, 6);
    const int64_t cg = kind == 2 ? 1 : *small(1, 5), kg = kind == 2 ? 1 : *small(1, 5);
    // Mostly the usual odd kernels; sometimes any size up to 11 (larger than 7x7).
    const auto usual = pick<int64_t>({1, 3, 5, 7});
    const auto kernel = [&] { return *mix<int64_t>({usual, usual, usual, small(1, 11)}); };
    const auto one = rc::gen::just<int64_t>(1);
    const auto dilation = mix<int64_t>({one, one, one, small(2, 3)});
    const bool large = *pick<int64_t>({0, 0, 0, 0, 0, 0, 0, 1}) == 1;
    const int64_t r = large ? *small(15, 17) : kernel(), s = large ? *small(15, 17) : kernel();
    const int64_t dh = *dilation, dw = *dilation;
    const int64_t ph = *small(0, r), pw = *small(0, s);
    // The input must hold at least one dilated window.
    const int64_t h = std::max<int64_t>({*dim(ctx, 65), dh * (r - 1) + 1 - 2 * ph, 1});
    const int64_t w = std::max<int64_t>({*dim(ctx, 65), dw * (s - 1) + 1 - 2 * pw, 1});
    Attrs a{{"n", *small(1, 3)},   {"c", g * cg},        {"h", h},   {"w", w},   {"k", g * kg}, {"r", r},   {"s", s},
            {"sh", *small(1, 3)},  {"sw", *small(1, 3)}, {"ph", ph}, {"pw", pw}, {"dh", dh},    {"dw", dw}, {"g", g},
            {"bias", *small(0, 1)}};
    // Shrinking h and w toward the smallest valid input keeps the problem valid.
    return fit_budget("conv2d", a,
                      {{"h", std::max<int64_t>(dh * (r - 1) + 1 - 2 * ph, 1)}, {"w", std::max<int64_t>(dw * (s - 1) + 1 - 2 * pw, 1)}, {"n", 1}},
                      ctx.budget);
  });
}

}  // namespace

void add_conv_gens(std::map<std::string, GenFactory>& g) {
  g["conv2d"] = conv_gen;
  g["conv2d_bwd_data"] = same_as("conv2d_bwd_data", conv_gen);
  g["conv2d_bwd_weight"] = same_as("conv2d_bwd_weight", conv_gen);
}

}  // namespace plumbline::gen
