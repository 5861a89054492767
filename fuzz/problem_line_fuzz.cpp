// libFuzzer: the problem-line parser. Any input is a problem or an Error that names what is wrong;
// never a crash, a hang, undefined behaviour or another exception.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/problem.hpp"
#include "core/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const plumbline::Problem p = plumbline::Problem::parse(std::string(reinterpret_cast<const char*>(data), size));
    // A parsed problem round-trips, and its signature is defined.
    if (!(plumbline::Problem::parse(p.line()) == p)) __builtin_trap();
    plumbline::signature_of(p);
  } catch (const plumbline::Error&) {
  }
  return 0;
}
