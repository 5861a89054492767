// Problem generators of the softmax and loss family.
#include "check/generators/common.hpp"

namespace plumbline::gen {

namespace {

GenFactory rows_gen(const std::string& op) {
  return [op](double budget) {
    return rc::gen::exec([budget, op] {
      Attrs a{{"m", *dim(129)}, {"n", *dim(1025)}};
      return fit_budget(op, a, {{"m", 1}, {"n", 1}}, budget);
    });
  };
}

rc::Gen<Problem> cross_entropy_gen(double budget) {
  return rc::gen::exec([budget] {
    Attrs a{{"b", *dim(129)}, {"c", *dim(1025)}, {"labels", *choice({"index", "soft"})}};
    return fit_budget("cross_entropy", a, {{"b", 1}, {"c", 1}}, budget);
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
