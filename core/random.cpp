#include "core/random.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>

#include "core/error.hpp"

namespace plumbline {

const char* to_string(Values v) {
  switch (v) {
    case Values::Integers:
      return "integers";
    case Values::Uniform:
      return "uniform";
    case Values::Normal:
      return "normal";
    case Values::Edge:
      return "edge";
    case Values::Sparse:
      return "sparse";
  }
  return "?";
}

Values values_from_string(const std::string& name) {
  for (Values v : {Values::Integers, Values::Uniform, Values::Normal, Values::Edge, Values::Sparse})
    if (name == to_string(v)) return v;
  throw Error("unknown value distribution '" + name + "' (choose integers, uniform, normal, edge or sparse)");
}

const std::vector<float>& edge_values(DType d) {
  if (d == DType::F16) {
    static const std::vector<float> h{0.0f,     -0.0f,     0x1p-24f, -0x1p-24f, 0x1p-15f, 0x1p-14f, INFINITY, -INFINITY, NAN,
                                      65504.0f, -65504.0f, 11.0f,    -11.0f,    11.125f,  -17.0f,   1e4f,     -1e4f,     0x1p-23f};
    return h;
  }
  if (d == DType::BF16) {
    static const std::vector<float> b = [] {
      std::vector<float> v;
      for (float x : edge_values(DType::F32)) v.push_back(round_to(DType::BF16, x));
      v.push_back(static_cast<float>(max_finite(DType::BF16)));
      v.push_back(-static_cast<float>(max_finite(DType::BF16)));
      v.push_back(0x1p-133f);
      return v;
    }();
    return b;
  }
  using L = std::numeric_limits<float>;
  static const std::vector<float> v{
      0.0f,     -0.0f,     L::denorm_min(), -L::denorm_min(), L::min() / 2, L::min(), L::infinity(), -L::infinity(), L::quiet_NaN(),
      L::max(), -L::max(), 88.5f,           -88.5f,           89.0f,        -104.0f,  1e30f,         -1e30f,         1e-30f};
  return v;
}

namespace {

// An even integer of [2^p, 2^(p+1)) of either sign, p the precision of d (random.hpp, sample()).
float tie_maker(Rng& rng, DType d) {
  const int p = -std::ilogb(unit_roundoff(d));
  const int halves = std::uniform_int_distribution<int>(1 << (p - 1), (1 << p) - 1)(rng);
  return static_cast<float>(std::uniform_int_distribution<int>(0, 1)(rng) ? 2 * halves : -2 * halves);
}

float draw(Values v, Rng& rng, DType d, bool ties) {
  switch (v) {
    case Values::Integers:
      if (ties && d != DType::F32 && std::uniform_int_distribution<int>(0, 3)(rng) == 0) return tie_maker(rng, d);
      {
        // -0 as often as +0: a kernel that orders them (a max pool's first maximum among equal
        // zeros) differs from the reference only where both meet
        const int k = std::uniform_int_distribution<int>(-3, 4)(rng);
        return k == 4 ? -0.0f : static_cast<float>(k);
      }
    case Values::Uniform:
      return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    case Values::Normal: {
      float x = std::normal_distribution<float>(0.0f, 1.0f)(rng);
      if (std::uniform_int_distribution<int>(0, 63)(rng) == 0)
        x = d == DType::F16 ? std::ldexp(x, std::uniform_int_distribution<int>(2, 5)(rng))
                            : std::ldexp(x, std::uniform_int_distribution<int>(4, 12)(rng));
      return x;
    }
    case Values::Sparse:
      return draw(Values::Normal, rng, d, false);  // the specials: place_sparse_specials
    case Values::Edge: {
      if (std::uniform_int_distribution<int>(0, 3)(rng) != 0) return draw(Values::Normal, rng, d, false);
      const auto& e = edge_values(d);
      return e[std::uniform_int_distribution<size_t>(0, e.size() - 1)(rng)];
    }
  }
  return 0.0f;
}

}  // namespace

float sample(Values v, Rng& rng, DType d, bool ties) { return round_to(d, draw(v, rng, d, ties)); }

namespace {

// Every edge tensor holds special values, even a tiny one (a 3-element tensor would otherwise see
// NaN in 1 case of 25): a run of the edge list from a random start, at random places, then NaN, +Inf
// and -Inf, the values the NaN policy is about (mutants that mishandled them survived otherwise: a
// relu dropping NaN, silu(-Inf) as -Inf * 0), where the tensor has room for them beside the run.
void place_edge_values(TensorF& t, Rng& rng, DType d) {
  if (t.data.empty()) return;
  const auto& e = edge_values(d);
  auto place = [&](float value) { t.data[std::uniform_int_distribution<size_t>(0, t.data.size() - 1)(rng)] = value; };
  const size_t start = std::uniform_int_distribution<size_t>(0, e.size() - 1)(rng);
  const size_t count = std::max<size_t>(1, t.data.size() / 8);
  for (size_t k = 0; k < std::min(count, e.size()); ++k) place(e[(start + k) % e.size()]);
  if (t.data.size() >= 3)
    for (float special : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()})
      place(special);
}

// Sparse's specials: 1-4 at random places, each +-Inf half of the time, else any of the edge list (NaN
// among them: then every output that sums it is NaN, as in Edge, so most tensors have none).
void place_sparse_specials(TensorF& t, Rng& rng, DType d) {
  if (t.data.empty()) return;
  const auto& e = edge_values(d);
  const int count = std::uniform_int_distribution<int>(1, 4)(rng);
  for (int k = 0; k < count; ++k) {
    const bool inf = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
    const float value =
        inf ? (std::uniform_int_distribution<int>(0, 1)(rng) ? INFINITY : -INFINITY) : e[std::uniform_int_distribution<size_t>(0, e.size() - 1)(rng)];
    t.data[std::uniform_int_distribution<size_t>(0, t.data.size() - 1)(rng)] = value;
  }
}

// Attention masks: about a quarter of the rows (the last dimension) get a run of -Inf of random place
// and length, never the whole row, and their other values are made finite. Without such rows every
// -Inf of an edge tensor shares its row with the NaN and +Inf placed above, and a softmax whose
// running maximum starts at -Inf and meets -Inf first (exp(-Inf - -Inf) = NaN) passed every check.
void mask_rows(TensorF& t, Rng& rng, DType d) {
  const int64_t cols = t.shape.rank() ? t.shape[t.shape.rank() - 1] : 1;
  if (cols < 2) return;
  for (int64_t r = 0; r < t.numel() / cols; ++r) {
    if (std::uniform_int_distribution<int>(0, 3)(rng) != 0) continue;
    const int64_t len = std::uniform_int_distribution<int64_t>(1, cols - 1)(rng);
    const int64_t start = std::uniform_int_distribution<int64_t>(0, cols - len)(rng);
    for (int64_t j = 0; j < cols; ++j) {
      float& x = t[r * cols + j];
      if (j >= start && j < start + len)
        x = -std::numeric_limits<float>::infinity();
      else if (!std::isfinite(x))
        x = sample(Values::Normal, rng, d);
    }
  }
}

}  // namespace

void fill(TensorF& t, Values v, Rng& rng, DType d, bool ties) {
  for (auto& x : t.data) x = sample(v, rng, d, ties);
  if (v == Values::Edge) place_edge_values(t, rng, d);
  if (v == Values::Sparse) place_sparse_specials(t, rng, d);
}

TensorF make_input(const TensorDecl& decl, Values v, Rng& rng, DType d, bool ties) {
  TensorF t(decl.shape);
  switch (decl.domain) {
    case Domain::Real:
      fill(t, v, rng, d, ties);
      break;
    case Domain::Logits:
      fill(t, v, rng, d, ties);
      if (v == Values::Edge) mask_rows(t, rng, d);
      break;
    case Domain::ClassIndex:
      for (auto& x : t.data) x = static_cast<float>(std::uniform_int_distribution<int64_t>(0, decl.classes - 1)(rng));
      break;
    case Domain::Distribution:
    case Domain::LogDistribution: {
      // Rows of non-negative weights normalized to sum to 1 (the last dimension is the class axis). With
      // edge values, about a quarter of the weights are exactly 0 (never a whole row): log 0 = -Inf.
      const int64_t cols = decl.shape.rank() ? decl.shape[decl.shape.rank() - 1] : 1;
      for (int64_t r = 0; r < t.numel() / cols; ++r) {
        double total = 0;
        for (int64_t j = 0; j < cols; ++j) {
          const bool zero = v == Values::Edge && j > 0 && std::uniform_int_distribution<int>(0, 3)(rng) == 0;
          total += t[r * cols + j] = zero ? 0.0f : std::uniform_real_distribution<float>(0.01f, 1.0f)(rng);
        }
        for (int64_t j = 0; j < cols; ++j) {
          const double w = t[r * cols + j] / total;
          t[r * cols + j] = round_to(d, static_cast<float>(decl.domain == Domain::Distribution ? w : std::log(w)));
        }
      }
      break;
    }
  }
  return t;
}

TensorF make_input_parallel(const TensorDecl& decl, Values v, uint64_t seed, DType d, bool ties) {
  Rng rng(seed);
  if (decl.domain != Domain::Real) return make_input(decl, v, rng, d, ties);
  TensorF t(decl.shape);
  constexpr int64_t kChunk = int64_t{1} << 20;
  const int64_t chunks = (t.numel() + kChunk - 1) / kChunk;
  std::atomic<int64_t> next{0};
  auto worker = [&] {
    for (int64_t c; (c = next++) < chunks;) {
      Rng local(seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(c) + 1);
      const int64_t end = std::min(t.numel(), (c + 1) * kChunk);
      for (int64_t i = c * kChunk; i < end; ++i) t[i] = sample(v, local, d, ties);
    }
  };
  std::vector<std::thread> pool;
  const int64_t threads = std::min<int64_t>(std::max(1u, std::thread::hardware_concurrency()), chunks);
  for (int64_t i = 1; i < threads; ++i) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (v == Values::Edge) place_edge_values(t, rng, d);  // as fill() places them
  if (v == Values::Sparse) place_sparse_specials(t, rng, d);
  return t;
}

}  // namespace plumbline
