// libFuzzer: the .npy reader. Any input is a tensor or an Error naming what is wrong (a header that
// claims more data than the file holds included: nothing is allocated for it).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "core/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    plumbline::read_npy<double>(in, "fuzz.npy");
  } catch (const plumbline::Error&) {
  }
  return 0;
}
