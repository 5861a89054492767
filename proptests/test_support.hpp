#pragma once
// Helpers shared by the test suites.
#include <functional>
#include <string>

#include "core/error.hpp"

namespace plumbline::test {

// The message of the plumbline::Error that f throws, or "<no error>".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace plumbline::test
