// libFuzzer: the rules-file parser (egraph/rules). Any input is a list of rules or an Error naming the
// line.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "egraph/rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    plumbline::egraph::parse_rules(std::string(reinterpret_cast<const char*>(data), size), "fuzz.rules");
  } catch (const plumbline::Error&) {
  }
  return 0;
}
