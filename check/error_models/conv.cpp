// Error models of the convolution family: linear, so the reference on |inputs| bounds every sum.
//   conv2d: c/g * r * s products (+ the bias) per output; IEEE evaluation multiplies padding by the
//     weights (0 x Inf = NaN), which the reference leaves out;
//   conv2d_bwd_data: at most k/g * r * s terms per input element;
//   conv2d_bwd_weight: n * p * q terms per weight, and per bias.
// Exact on integer inputs.
#include <cmath>

#include "check/error_models.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

namespace plumbline::models {

namespace {

// IEEE evaluation of the padded formula multiplies each padding cell by its weight: 0 x Inf (or NaN)
// is NaN wherever a non-finite weight meets padding; the reference leaves padding out. An output's
// non-finite taps are those of its filter (c/g * r * s of them) less those meeting input cells: the
// reference on ones (the input) and the non-finite weights' indicator counts the latter.
void padding_times_nonfinite(ErrorModel& m, const Problem& p, const std::vector<TensorD>& in) {
  if (p.i("ph") == 0 && p.i("pw") == 0) return;
  const int64_t k = p.i("k"), taps = p.i("c") / p.i("g") * p.i("r") * p.i("s");
  std::vector<TensorD> marks{TensorD(in[0].shape, 1.0), TensorD(in[1].shape)};
  if (in.size() > 2) marks.push_back(TensorD(in[2].shape));
  std::vector<double> per_filter(static_cast<size_t>(k));
  for (int64_t i = 0; i < in[1].numel(); ++i)
    if (!std::isfinite(in[1][i])) marks[1][i] = 1, ++per_filter[static_cast<size_t>(i / taps)];
  const TensorD met = run_reference(p, marks)[0];  // per output: non-finite taps on input cells
  const Shape& y = met.shape;                      // n, k, p, q
  const int64_t plane = y[2] * y[3];
  for (int64_t o = 0; o < met.numel(); ++o)
    if (met[o] < per_filter[static_cast<size_t>((o / plane) % k)])
      m.depart(met.numel(), o, IeeeOutcome::kNaN, EdgeRule::Padding,
               "a non-finite weight meets padding, which the reference leaves out, where IEEE evaluation of the padded sum gives 0 x Inf = NaN");
}

}  // namespace

void add_conv(std::map<std::string, ErrorModelFn>& m) {
  m["conv2d"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    auto v = linear(p, in, {static_cast<double>(p.i("c") / p.i("g") * p.i("r") * p.i("s") + 1)}, ints);
    padding_times_nonfinite(v[0], p, in);
    return v;
  };
  m["conv2d_bwd_data"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    return linear(p, in, {static_cast<double>(p.i("k") / p.i("g") * p.i("r") * p.i("s"))}, ints);
  };
  m["conv2d_bwd_weight"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    const Shape y = signature_of(p).input("d_y").shape;
    const double terms = static_cast<double>(y[0] * y[2] * y[3]);
    return linear(p, in, std::vector<double>(p.i("bias") ? 2 : 1, terms), ints);
  };
}

}  // namespace plumbline::models
