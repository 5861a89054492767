#pragma once
// Seeded random numbers and the value distributions every check draws its tensors from.
// RapidCheck's own float generator never produces non-finite values; the Edge distribution does.
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "core/tensor.hpp"

namespace plumbline {

using Rng = std::mt19937_64;

enum class Values {
  Integers,  // small integers in [-3, 3], zero of either sign: every partial sum of a linear operator is exact in float32
             // (with ties: a quarter of them at the format's precision edge, below)
  Uniform,   // uniform in [-1, 1)
  Normal,    // standard normal, with about 1 value in 64 scaled by 2^4 .. 2^12
  Edge,      // mostly normal, with +-0, subnormals, +-Inf, NaN, FLT_MAX and values near exp overflow mixed in
  Sparse,    // normal, with 1-4 special values a tensor (half of them +-Inf, the rest from the edge list)
};
// Why Sparse beside Edge: a quarter of Edge's values are special, so in a reduction over a thousand
// terms nearly every output meets a NaN and is NaN whatever the kernel does. What a kernel makes of one
// Inf among finite terms (0 * Inf where it split a factor into parts and one part is 0) stays unseen
// there; with a few specials a tensor most outputs stay finite and the few that meet an Inf are judged.

const char* to_string(Values v);
inline void showValue(Values v, std::ostream& os) { os << to_string(v); }  // for RapidCheck's counterexamples
Values values_from_string(const std::string& name);                        // Error naming the choices on a bad name

// The special values the Edge distribution mixes in, per storage format: float32's, or the format's own
// (its largest finite value, smallest normal, subnormals, values near exp's overflow in the format).
const std::vector<float>& edge_values(DType d = DType::F32);

// A value of the storage format d: drawn, then rounded to d. In f16 the Normal distribution's
// occasional large values are scaled by 2^2 .. 2^5 (not 2^4 .. 2^12), so that products and sums stay
// inside f16's range (65504) unless the edge pass puts its largest values in.
// ties (Signature::exact_ties, f16/bf16 only): a quarter of the Integers are even integers of
// [2^p, 2^(p+1)), p the format's precision (bf16 8, f16 11): the largest the format holds at a spacing of
// 2, so that adding an odd integer, or multiplying by 3, gives a float32 value halfway between two
// values of the format. Products of two stay below 2^24, exact in float32.
float sample(Values v, Rng& rng, DType d = DType::F32, bool ties = false);
void fill(TensorF& t, Values v, Rng& rng, DType d = DType::F32, bool ties = false);

// A tensor for one declared input: class indices and soft labels respect their domains,
// Real tensors draw from `v`; every value is one of the storage format d.
TensorF make_input(const TensorDecl& decl, Values v, Rng& rng, DType d = DType::F32, bool ties = false);

// The same distributions drawn on every core, for tensors of hundreds of millions of elements (a
// sampled check's inputs): chunk c of a Real tensor draws from its own generator seeded by (seed, c),
// so the values do not depend on the number of threads; they differ from make_input's.
TensorF make_input_parallel(const TensorDecl& decl, Values v, uint64_t seed, DType d = DType::F32, bool ties = false);

}  // namespace plumbline
