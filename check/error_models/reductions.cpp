// Error models of the reductions and shape family. A sum of K terms in any order errs by at most
// gamma(K) * sum |terms| (so a tree, a strided or a sequential sum all fit); the mean's division adds
// 2.5 ulp (OpenCL's single-precision division), counted as 3. A transpose moves values: exact.
#include "check/error_models.hpp"

namespace plumbline::models {

void add_reductions(std::map<std::string, ErrorModelFn>& m) {
  auto terms = [](const Problem& p) { return static_cast<double>(p.s("over") == "all" ? p.i("m") * p.i("n") : p.i("n")); };
  m["sum"] = [terms](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    return linear(p, in, {terms(p)}, ints);
  };
  m["mean"] = [terms](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
    auto v = linear(p, in, {terms(p)}, false, 3);
    overflowing_averages(v[0], p, in[0], TensorD(v[0].mag.shape, terms(p)), terms(p), "the sum");
    return v;
  };
  m["transpose"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) { return linear(p, in, {0}, true); };
}

}  // namespace plumbline::models
