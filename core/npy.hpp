#pragma once
// .npy files (NumPy format 1.0-3.0): float32 and float64, little-endian, C order. Anything else is
// refused with a message that names the file and what it holds.
#include <istream>
#include <string>

#include "core/tensor.hpp"

namespace plumbline {

// Reads '<f4' or '<f8' data and converts it to T.
template <class T>
Tensor<T> read_npy(const std::string& path);
// The same from a stream; `name` names it in messages.
template <class T>
Tensor<T> read_npy(std::istream& in, const std::string& name);

void write_npy(const std::string& path, const TensorF& t);  // writes '<f4'
void write_npy(const std::string& path, const TensorD& t);  // writes '<f8'

}  // namespace plumbline
