// Slices of the GEMM family (check/sampling.hpp).
//   matmul, gemm_bias_act: one element y[b,i,j] is the m=n=1 problem on row i of op(A) and column j of
//     op(B) (and bias[j]): k products, the reduction length of the full model.
//   gemm_bias_act_bwd: a row of d_a needs a whole row of grad_pre, so its unit is the m=1 problem on row i
//     of A and d_y (all of B); a column j of d_b (every batch entry) and d_bias[j] is the n=1 problem
//     on column j of B, d_y and bias (all of A).
#include <algorithm>

#include "check/sampling.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace plumbline::slicers {

namespace {

// The largest |act'| of the activations here (gelu's is 1.13, silu's 1.10).
constexpr double kSlopeBound = 1.2;

int64_t batches(const Problem& p) { return std::max<int64_t>(p.i("batch"), 1); }

// gemm_bias_act's B is [K,N] when shared (or unbatched), else [batch,K,N].
bool b_shared(const Problem& p) { return p.i("batch") == 0 || p.i("bshared"); }

SlicePlan matmul(const Problem& p, const std::vector<TensorF>& in) {
  const TensorF &a = in[0], &b = in[1];
  const int64_t m = p.i("m"), k = p.i("k"), n = p.i("n");
  const bool ta = p.i("ta"), tb = p.i("tb");
  const Problem sub = p.with("batch", int64_t{0}).with("m", int64_t{1}).with("n", int64_t{1}).with("ta", int64_t{0}).with("tb", int64_t{0});
  SliceKind kind{"elements of y", {batches(p), m, n}, signature_of(sub).flops, signature_of(sub).bytes(), {}};
  kind.cut = [&a, &b, sub, m, k, n, ta, tb](int64_t u) {
    const int64_t bi = u / (m * n), i = u / n % m, j = u % n;
    Slice s{sub, {TensorD(Shape{1, k}), TensorD(Shape{k, 1})}, {{u}}};
    for (int64_t l = 0; l < k; ++l) {
      s.inputs[0][l] = a[bi * m * k + (ta ? l * m + i : i * k + l)];
      s.inputs[1][l] = b[bi * k * n + (tb ? j * k + l : l * n + j)];
    }
    return s;
  };
  return {{kind}, static_cast<double>(k) * largest_magnitude(a) * largest_magnitude(b)};
}

SlicePlan gemm_bias_act(const Problem& p, const std::vector<TensorF>& in) {
  const TensorF &a = in[0], &b = in[1], &bias = in[2];
  const int64_t m = p.i("m"), k = p.i("k"), n = p.i("n");
  const bool shared = b_shared(p);
  const Problem sub = p.with("bshared", int64_t{0}).with("batch", int64_t{0}).with("m", int64_t{1}).with("n", int64_t{1});
  SliceKind kind{"elements of y", {batches(p), m, n}, signature_of(sub).flops, signature_of(sub).bytes(), {}};
  kind.cut = [&a, &b, &bias, sub, m, k, n, shared](int64_t u) {
    const int64_t bi = u / (m * n), i = u / n % m, j = u % n, bb = shared ? 0 : bi;
    Slice s{sub, {TensorD(Shape{1, k}), TensorD(Shape{k, 1}), TensorD(Shape{1}, bias[j])}, {{u}}};
    for (int64_t l = 0; l < k; ++l) {
      s.inputs[0][l] = a[(bi * m + i) * k + l];
      s.inputs[1][l] = b[(bb * k + l) * n + j];
    }
    return s;
  };
  // Every activation here is at most |x| in size, or at most 1.
  const double pre = static_cast<double>(k) * largest_magnitude(a) * largest_magnitude(b) + largest_magnitude(bias);
  return {{kind}, std::max(pre, 1.0)};
}

SlicePlan gemm_bias_act_bwd(const Problem& p, const std::vector<TensorF>& in) {
  const TensorF &a = in[0], &b = in[1], &bias = in[2], &dy = in[3];
  const int64_t nb = batches(p), m = p.i("m"), k = p.i("k"), n = p.i("n");
  const bool shared = b_shared(p);
  SlicePlan plan;
  // A row of d_a: row i of A and d_y, B of its batch entry, all of bias.
  const Problem row = p.with("bshared", int64_t{0}).with("batch", int64_t{0}).with("m", int64_t{1});
  SliceKind rows{"rows of d_a", {nb, m}, signature_of(row).flops, signature_of(row).bytes(), {}};
  // Rows of one batch entry's B together (B is most of a row's slice): the m=G problem on rows gathered.
  rows.cut_many = [&a, &b, &bias, &dy, row, m, k, n, shared](const std::vector<int64_t>& units) {
    const int64_t g = static_cast<int64_t>(units.size()), bb = shared ? 0 : units[0] / m;
    Slice s{row.with("m", g), {TensorD(Shape{g, k}), TensorD(Shape{k, n}), bias.convert<double>(), TensorD(Shape{g, n})}, {{}, {}, {}}};
    std::copy(b.data.begin() + bb * k * n, b.data.begin() + (bb + 1) * k * n, s.inputs[1].data.begin());
    for (int64_t r = 0; r < g; ++r) {
      const int64_t u = units[static_cast<size_t>(r)];  // row u % m of batch entry u / m
      if (!shared && u / m != bb) throw Error("rows of d_a from several batch entries of B in one slice");
      for (int64_t l = 0; l < k; ++l) s.inputs[0][r * k + l] = a[u * k + l], s.at[0].push_back(u * k + l);
      for (int64_t j = 0; j < n; ++j) s.inputs[3][r * n + j] = dy[u * n + j];
    }
    return s;
  };
  rows.cut = [cut_many = rows.cut_many](int64_t u) { return cut_many({u}); };
  rows.unit_of = [k](size_t, int64_t flat) { return flat / k; };  // d_a's [batch, m, k]
  rows.together = shared ? 0 : m;                                 // rows of one B
  // Column j of d_b in every batch entry, and d_bias[j]: all of A, column j of B, d_y and bias.
  const Problem col = p.with("n", int64_t{1});
  SliceKind cols{"columns of d_b (with d_bias)", {n}, signature_of(col).flops, signature_of(col).bytes(), {}};
  // Columns together (all of A is most of a column's slice): the n=G problem on columns gathered.
  cols.cut_many = [&a, &b, &bias, &dy, col, nb, m, k, n, shared](const std::vector<int64_t>& units) {
    const int64_t g = static_cast<int64_t>(units.size());
    const Problem cols_g = col.with("n", g);
    const Signature sig = signature_of(cols_g);
    Slice s{cols_g, {a.convert<double>(), TensorD(sig.inputs[1].shape), TensorD(Shape{g}), TensorD(sig.inputs[3].shape)}, {{}, {}, {}}};
    const int64_t b_entries = shared ? 1 : nb;
    s.at[1].resize(static_cast<size_t>(b_entries * k * g));
    for (int64_t c = 0; c < g; ++c) {
      const int64_t j = units[static_cast<size_t>(c)];
      for (int64_t bl = 0; bl < b_entries * k; ++bl) {  // entry bl / k of B, its row bl % k
        s.inputs[1][bl * g + c] = b[bl * n + j];
        s.at[1][static_cast<size_t>(bl * g + c)] = bl * n + j;
      }
      s.inputs[2][c] = bias[j];
      s.at[2].push_back(j);
      for (int64_t r = 0; r < nb * m; ++r) s.inputs[3][r * g + c] = dy[r * n + j];
    }
    return s;
  };
  cols.unit_of = [n](size_t, int64_t flat) { return flat % n; };  // d_b's [.., k, n] and d_bias's [n]
  cols.cut = [cut_many = cols.cut_many](int64_t j) { return cut_many({j}); };
  plan.kinds = {rows, cols};
  const double ma = largest_magnitude(a), mb = largest_magnitude(b), mdy = largest_magnitude(dy);
  const double pre = static_cast<double>(k) * ma * mb + largest_magnitude(bias);
  const double sums = kSlopeBound * mdy * std::max({static_cast<double>(n) * mb, static_cast<double>(nb * m) * std::max(ma, 1.0)});
  plan.output_bound = std::max(pre, sums);
  return plan;
}

}  // namespace

void add_gemm(std::map<std::string, Slicer>& m) {
  m["matmul"] = matmul;
  m["gemm_bias_act"] = gemm_bias_act;
  m["gemm_bias_act_bwd"] = gemm_bias_act_bwd;
}

}  // namespace plumbline::slicers
