#include "core/npy.hpp"

#include <bit>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace plumbline {

namespace {

static_assert(std::endian::native == std::endian::little, ".npy I/O assumes a little-endian host");

constexpr char kMagic[] = "\x93NUMPY";

std::string header_value(const std::string& header, const std::string& key, const std::string& path) {
  const size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) throw Error(path + ": .npy header has no '" + key + "' entry: " + header);
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) throw Error(path + ": malformed .npy header: " + header);
  return header.substr(colon + 1);
}

Shape parse_shape(const std::string& rest, const std::string& path) {
  const size_t open = rest.find('('), close = rest.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open) throw Error(path + ": malformed 'shape' in .npy header");
  std::vector<int64_t> dims;
  std::stringstream ss(rest.substr(open + 1, close - open - 1));
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.find_first_not_of(" ") == std::string::npos) continue;
    try {
      size_t used = 0;
      const long long d = std::stoll(item, &used);
      if (d < 0) throw Error("");
      dims.push_back(d);
    } catch (...) {
      throw Error(path + ": bad dimension '" + item + "' in .npy shape");
    }
  }
  return Shape(dims);
}

template <class Src, class T>
void convert_into(const std::vector<char>& raw, Tensor<T>& out) {
  for (int64_t i = 0; i < out.numel(); ++i) {
    Src v;
    std::memcpy(&v, raw.data() + static_cast<size_t>(i) * sizeof(Src), sizeof(Src));
    out[i] = static_cast<T>(v);
  }
}

template <class T>
void write_impl(const std::string& path, const Tensor<T>& t, const char* descr, const char* data = nullptr, size_t bytes = 0) {
  std::string shape = "(";
  for (int i = 0; i < t.shape.rank(); ++i) shape += std::to_string(t.shape[i]) + (t.shape.rank() == 1 ? "," : (i + 1 < t.shape.rank() ? ", " : ""));
  shape += ")";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t preamble = 10;  // magic(6) + version(2) + header length(2)
  header.append(63 - (preamble + header.size()) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) throw Error("cannot write " + path + ": " + std::strerror(errno));
  f.write(kMagic, 6);
  const char version[2] = {1, 0};
  f.write(version, 2);
  const uint16_t len = static_cast<uint16_t>(header.size());
  f.write(reinterpret_cast<const char*>(&len), 2);
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  if (data)
    f.write(data, static_cast<std::streamsize>(bytes));
  else
    f.write(reinterpret_cast<const char*>(t.data.data()), static_cast<std::streamsize>(t.data.size() * sizeof(T)));
  if (!f) throw Error("error while writing " + path);
}

}  // namespace

template <class T>
Tensor<T> read_npy(const std::string& path, DType words) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open " + path + ": " + std::strerror(errno));
  return read_npy<T>(f, path, words);
}

template <class T>
Tensor<T> read_npy(std::istream& f, const std::string& path, DType words) {
  char magic[6] = {};
  f.read(magic, 6);
  if (!f || std::memcmp(magic, kMagic, 6) != 0) throw Error(path + ": not a .npy file (bad magic)");
  unsigned char version[2] = {};
  f.read(reinterpret_cast<char*>(version), 2);
  uint32_t header_len = 0;
  if (version[0] == 1) {
    uint16_t l = 0;
    f.read(reinterpret_cast<char*>(&l), 2);
    header_len = l;
  } else if (version[0] == 2 || version[0] == 3) {
    f.read(reinterpret_cast<char*>(&header_len), 4);
  } else {
    throw Error(path + ": unsupported .npy version " + std::to_string(version[0]));
  }
  // The header's length against what the file holds before it is allocated (found by fuzzing: a
  // version-2 length of 2 GB).
  const auto at = f.tellg();
  f.seekg(0, std::ios::end);
  const auto left = f.tellg() - at;
  f.seekg(at);
  if (!f || static_cast<uint64_t>(left) < header_len) throw Error(path + ": truncated .npy header");
  std::string header(header_len, '\0');
  f.read(header.data(), header_len);
  if (!f) throw Error(path + ": truncated .npy header");

  const std::string descr_rest = header_value(header, "descr", path);
  const size_t q1 = descr_rest.find('\''), q2 = descr_rest.find('\'', q1 + 1);
  if (q1 == std::string::npos || q2 == std::string::npos) throw Error(path + ": malformed 'descr' in .npy header");
  const std::string descr = descr_rest.substr(q1 + 1, q2 - q1 - 1);
  const bool bf16_words = descr == "<u2" && words == DType::BF16;
  if (descr != "<f4" && descr != "<f8" && descr != "<f2" && !bf16_words)
    throw Error(path + ": dtype '" + descr + "' is not supported (little-endian float16 '<f2', float32 '<f4' and float64 '<f8'" +
                (descr == "<u2" ? std::string("; uint16 '<u2' only as the bf16 words of a dtype=bf16 problem") : std::string("")) + ")");
  const std::string fortran = header_value(header, "fortran_order", path);
  if (fortran.find("True") < fortran.find(',')) throw Error(path + ": Fortran-order arrays are not supported; save with C order");

  const Shape shape = parse_shape(header_value(header, "shape", path), path);
  const size_t item = descr == "<f4" ? 4 : descr == "<f8" ? 8 : 2;
  // The data's size against what the file holds before anything is allocated: a header may claim more.
  const auto here = f.tellg();
  f.seekg(0, std::ios::end);
  const auto held = static_cast<uint64_t>(f.tellg() - here);
  f.seekg(here);
  uint64_t need = 0;
  const bool overflow = __builtin_mul_overflow(static_cast<uint64_t>(shape.numel()), item, &need);
  if (overflow || need > held)
    throw Error(path + ": truncated data: shape " + shape.str() + " needs " + (overflow ? "more than 2^64" : std::to_string(need)) +
                " bytes, file holds " + std::to_string(held));
  Tensor<T> out(shape);
  std::vector<char> raw(static_cast<size_t>(need));
  f.read(raw.data(), static_cast<std::streamsize>(raw.size()));
  if (f.gcount() != static_cast<std::streamsize>(raw.size()))
    throw Error(path + ": truncated data: shape " + out.shape.str() + " needs " + std::to_string(raw.size()) + " bytes, file holds " +
                std::to_string(f.gcount()));
  if (f.peek() != std::char_traits<char>::eof()) throw Error(path + ": trailing bytes after the array data");
  if (item == 4) {
    convert_into<float>(raw, out);
  } else if (item == 8) {
    convert_into<double>(raw, out);
  } else {
    for (int64_t i = 0; i < out.numel(); ++i) {
      uint16_t w;
      std::memcpy(&w, raw.data() + static_cast<size_t>(i) * 2, 2);
      out[i] = static_cast<T>(from_bits(bf16_words ? DType::BF16 : DType::F16, w));
    }
  }
  return out;
}

template Tensor<float> read_npy<float>(const std::string&, DType);
template Tensor<double> read_npy<double>(const std::string&, DType);
template Tensor<float> read_npy<float>(std::istream&, const std::string&, DType);
template Tensor<double> read_npy<double>(std::istream&, const std::string&, DType);

void write_npy_f16(const std::string& path, const TensorF& t) {
  std::vector<uint16_t> words(t.data.size());
  for (size_t i = 0; i < words.size(); ++i) words[i] = to_bits(DType::F16, t.data[i]);
  write_impl(path, t, "<f2", reinterpret_cast<const char*>(words.data()), words.size() * 2);
}

void write_npy(const std::string& path, const TensorF& t) { write_impl(path, t, "<f4"); }
void write_npy(const std::string& path, const TensorD& t) { write_impl(path, t, "<f8"); }

}  // namespace plumbline
