#pragma once
// Helpers shared by the test suites.
#include <unistd.h>

#include <filesystem>
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

// A folder of this test process's own under the system's temporary folder (two runs of the suite on
// one machine, from two clones say, never share one), removed when the process ends.
inline std::filesystem::path temp_dir(const std::string& name) {
  struct Folder {
    std::filesystem::path path;
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Folder folder{std::filesystem::temp_directory_path() / ("plumbline_test_" + std::to_string(::getpid()))};
  const std::filesystem::path d = folder.path / name;
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace plumbline::test
