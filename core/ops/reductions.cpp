// Reductions and shape family: sum, mean (all elements, or each row), transpose (2-D).
#include "core/ops/families.hpp"

namespace plumbline {

namespace {

std::vector<AttrSpec> reduce_attrs() {
  return {int_attr("m", 1, 1, "rows"), int_attr("n", 1, 1, "columns"),
          enum_attr("over", "all", {"all", "row"}, "all: one scalar; row: one value per row ([m])")};
}

Signature reduce_signature(const Problem& p) {
  const int64_t m = p.i("m"), n = p.i("n");
  Signature s;
  s.inputs = {{"x", Shape{m, n}}};
  s.outputs = {{"y", p.s("over") == "all" ? Shape{} : Shape{m}}};
  s.flops = static_cast<double>(m) * static_cast<double>(n);
  return s;
}

Signature transpose_signature(const Problem& p) {
  const int64_t m = p.i("m"), n = p.i("n");
  Signature s;
  s.inputs = {{"x", Shape{m, n}}};
  s.outputs = {{"y", Shape{n, m}}};
  s.flops = 0;
  return s;
}

}  // namespace

void add_reduction_ops(std::vector<OpSpec>& ops) {
  ops.push_back({"sum", "reductions", "y = sum of x (all, or each row)", "", with_dtype(reduce_attrs()), reduce_signature});
  ops.push_back({"mean", "reductions", "y = mean of x (all, or each row)", "", with_dtype(reduce_attrs()), reduce_signature});
  ops.push_back({"transpose",
                 "reductions",
                 "y[j,i] = x[i,j]",
                 "",
                 {int_attr("m", 1, 1, "rows of x"), int_attr("n", 1, 1, "columns of x"), dtype_attr()},
                 transpose_signature});
}

}  // namespace plumbline
