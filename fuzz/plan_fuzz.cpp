// libFuzzer: the launch-plan parser and its expressions. Any input is a plan or an Error naming the
// line; a parsed plan's expressions evaluate, for its operator's default problem, to a value or an Error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "plans/plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace plumbline;
  try {
    for (const auto& v : plans::parse_plan(std::string(reinterpret_cast<const char*>(data), size), "fuzz.plan")) {
      const Problem p = Problem::make(v.op);
      plans::tile_sizes(v);
      v.unmet_requirement();
      try {
        plans::applies(v, p);
        plans::class_of(v, p);
        plans::steer(v, p);
        plans::scratch_floats(v, p);
        for (const auto& st : v.steps) plans::dispatch(v, st, p);
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
