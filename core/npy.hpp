#pragma once
// .npy files (NumPy format 1.0-3.0): float16, float32 and float64, little-endian, C order; bf16 as
// uint16 words ('<u2', the top halves of floats) where the caller asks for bf16. Anything else is
// refused with a message that names the file and what it holds.
#include <istream>
#include <string>

#include "core/dtype.hpp"
#include "core/tensor.hpp"

namespace plumbline {

// Reads '<f2', '<f4' or '<f8' data (and '<u2' bf16 words when words == BF16) and converts it to T.
template <class T>
Tensor<T> read_npy(const std::string& path, DType words = DType::F32);
// The same from a stream; `name` names it in messages.
template <class T>
Tensor<T> read_npy(std::istream& in, const std::string& name, DType words = DType::F32);

void write_npy(const std::string& path, const TensorF& t);      // writes '<f4'
void write_npy(const std::string& path, const TensorD& t);      // writes '<f8'
void write_npy_f16(const std::string& path, const TensorF& t);  // writes '<f2' (each value rounded to f16)

}  // namespace plumbline
