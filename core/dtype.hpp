#pragma once
// Storage formats of tensors (docs/verification.md, "Reduced precision"): float32, IEEE half (f16) and
// bfloat16 (bf16). Kernels read and write their tensors in the storage format and compute in float32;
// the host holds every value as float (each f16 and bf16 value is exactly a float) and rounds to the
// storage format with round-to-nearest-even, as the kernels' stores must.
#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.hpp"

namespace plumbline {

enum class DType { F32, F16, BF16 };

const char* to_string(DType d);
DType dtype_from_string(const std::string& name);  // Error naming the choices on a bad name
const std::vector<std::string>& dtype_names();     // f32 f16 bf16, the `dtype` attribute's choices
// The problem's storage format: its `dtype` attribute, f32 for operators without one.
DType dtype_of(const Problem& p);

int bytes_of(DType d);               // 4, 2, 2
double unit_roundoff(DType d);       // u = 2^-p: 2^-24, 2^-11, 2^-8
double max_finite(DType d);          // the largest finite value
double overflow_threshold(DType d);  // |x| from which round-to-nearest gives Inf (max + half an ulp)
double min_normal(DType d);
double min_subnormal(DType d);

// x rounded to the nearest value of the format (ties to even; overflow to Inf; NaN stays NaN).
float round_to(DType d, float x);
// The format's 16-bit word for x (x rounded first) and the float a word holds. F32 has no 16-bit word.
uint16_t to_bits(DType d, float x);
float from_bits(DType d, uint16_t bits);
// Whether x is a value of the format (NaN counts).
bool representable(DType d, float x);
// The word of x into *word (to_bits), and whether x is a value of the format (representable): one
// rounding for both, where a buffer's upload asked each of every element.
bool exact_bits(DType d, float x, uint16_t* word);

}  // namespace plumbline
