#pragma once
// One exception type for every user-facing error. The message always names the problem
// (which file, which line, which attribute, which buffer) so that it can be printed as is.
#include <stdexcept>
#include <string>

namespace plumbline {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace plumbline
