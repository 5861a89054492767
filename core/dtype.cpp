#include "core/dtype.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"

namespace plumbline {

const char* to_string(DType d) {
  switch (d) {
    case DType::F32:
      return "f32";
    case DType::F16:
      return "f16";
    case DType::BF16:
      return "bf16";
  }
  return "?";
}

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names{"f32", "f16", "bf16"};
  return names;
}

DType dtype_from_string(const std::string& name) {
  for (DType d : {DType::F32, DType::F16, DType::BF16})
    if (name == to_string(d)) return d;
  throw Error("unknown dtype '" + name + "' (choose f32, f16 or bf16)");
}

DType dtype_of(const Problem& p) { return p.has("dtype") ? dtype_from_string(p.s("dtype")) : DType::F32; }

int bytes_of(DType d) { return d == DType::F32 ? 4 : 2; }

double unit_roundoff(DType d) {
  switch (d) {
    case DType::F32:
      return std::ldexp(1.0, -24);
    case DType::F16:
      return std::ldexp(1.0, -11);
    case DType::BF16:
      return std::ldexp(1.0, -8);
  }
  return 0;
}

double max_finite(DType d) {
  switch (d) {
    case DType::F32:
      return std::numeric_limits<float>::max();
    case DType::F16:
      return 65504.0;
    case DType::BF16:
      return std::ldexp(2.0 - std::ldexp(1.0, -7), 127);
  }
  return 0;
}

double overflow_threshold(DType d) {
  switch (d) {
    case DType::F32:
      return std::ldexp(2.0 - std::ldexp(1.0, -24), 127);
    case DType::F16:
      return 65520.0;
    case DType::BF16:
      return std::ldexp(2.0 - std::ldexp(1.0, -8), 127);
  }
  return 0;
}

double min_normal(DType d) { return d == DType::F16 ? std::ldexp(1.0, -14) : std::ldexp(1.0, -126); }

double min_subnormal(DType d) {
  switch (d) {
    case DType::F32:
      return std::ldexp(1.0, -149);
    case DType::F16:
      return std::ldexp(1.0, -24);
    case DType::BF16:
      return std::ldexp(1.0, -133);
  }
  return 0;
}

namespace {

uint32_t bits_of(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

float float_of(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

uint16_t bf16_bits(float x) {
  const uint32_t u = bits_of(x);
  if (std::isnan(x)) return static_cast<uint16_t>((u >> 16) | 0x0040u);  // keep sign and payload, set the quiet bit
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);  // nearest, ties to even (carries into Inf)
}

// IEEE binary16 from a float, round to nearest even, subnormals included.
uint16_t f16_bits(float x) {
  const uint32_t u = bits_of(x);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  if (std::isnan(x)) return static_cast<uint16_t>(sign | 0x7E00u | ((u >> 13) & 0x01FFu));
  const float a = std::fabs(x);
  if (a >= 65520.0f) return static_cast<uint16_t>(sign | 0x7C00u);
  if (a < std::ldexp(1.0f, -14)) {  // subnormal or zero: a multiple of 2^-24, rounded by the FPU (ties to even)
    const float q = std::nearbyint(a * std::ldexp(1.0f, 24));
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));  // q == 1024 is the smallest normal's word
  }
  const uint32_t au = bits_of(a);
  const uint32_t exp = (au >> 23) - 127 + 15, mant = au & 0x7FFFFFu;
  uint32_t h = (exp << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: still right
  return static_cast<uint16_t>(sign | h);
}

float f16_value(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  if (exp == 0x1F) return float_of(sign | 0x7F800000u | (mant << 13));
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  return float_of(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

}  // namespace

uint16_t to_bits(DType d, float x) {
  switch (d) {
    case DType::F16:
      return f16_bits(x);
    case DType::BF16:
      return bf16_bits(x);
    case DType::F32:
      break;
  }
  throw Error("to_bits: float32 has no 16-bit word");
}

float from_bits(DType d, uint16_t bits) {
  switch (d) {
    case DType::F16:
      return f16_value(bits);
    case DType::BF16:
      return float_of(static_cast<uint32_t>(bits) << 16);
    case DType::F32:
      break;
  }
  throw Error("from_bits: float32 has no 16-bit word");
}

float round_to(DType d, float x) { return d == DType::F32 ? x : from_bits(d, to_bits(d, x)); }

bool exact_bits(DType d, float x, uint16_t* word) {
  *word = to_bits(d, x);
  return std::isnan(x) || bits_of(from_bits(d, *word)) == bits_of(x);
}

bool representable(DType d, float x) {
  uint16_t word;
  return d == DType::F32 || exact_bits(d, x, &word);
}

}  // namespace plumbline
