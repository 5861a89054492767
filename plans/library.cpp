#include "plans/library.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/error.hpp"
#include "core/numeric_mode.hpp"
#include "core/registry.hpp"

#ifndef PLUMBLINE_DEFAULT_KERNEL_DIR
#define PLUMBLINE_DEFAULT_KERNEL_DIR "opencl/kernels"
#endif
#ifndef PLUMBLINE_DEFAULT_TUNING_DIR
#define PLUMBLINE_DEFAULT_TUNING_DIR "opencl/tuning"
#endif

namespace plumbline::plans {

namespace fs = std::filesystem;

namespace {

struct DataDirs {
  std::mutex mutex;
  std::string kernels = PLUMBLINE_DEFAULT_KERNEL_DIR, tuning = PLUMBLINE_DEFAULT_TUNING_DIR;
};
DataDirs& data_dirs() {
  static DataDirs d;
  return d;
}

}  // namespace

void set_data_dir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(data_dirs().mutex);
  data_dirs().kernels = (fs::path(dir) / "kernels").string();
  data_dirs().tuning = (fs::path(dir) / "tuning").string();
}

std::string default_kernel_dir() {
  std::lock_guard<std::mutex> lock(data_dirs().mutex);
  return data_dirs().kernels;
}

std::string default_tuning_dir() {
  std::lock_guard<std::mutex> lock(data_dirs().mutex);
  return data_dirs().tuning;
}

std::string kernel_dir() {
  const char* env = std::getenv("PLUMBLINE_KERNEL_DIR");
  return env && *env ? env : default_kernel_dir();
}

namespace {

using Library = std::map<std::string, std::vector<Variant>>;

Library load(const std::string& dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".plan") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Library lib;
  std::map<std::string, std::string> file_of;
  for (const auto& f : files) {
    for (auto& v : read_plan_file(f.string(), false)) {
      auto [it, fresh] = file_of.emplace(v.op, f.string());
      if (!fresh && it->second != f.string())
        throw Error(v.where.str() + ": variants of " + v.op + " are in " + it->second +
                    " already; keep an operator's variants in one plan file (their order is their priority)");
      lib[v.op].push_back(std::move(v));
    }
  }
  return lib;
}

const Library& library() {
  // Keyed by folder: a test or a mutant run may point PLUMBLINE_KERNEL_DIR elsewhere.
  static std::mutex mutex;
  static std::map<std::string, Library> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string dir = kernel_dir();
  auto it = loaded.find(dir);
  if (it == loaded.end()) it = loaded.emplace(dir, load(dir)).first;
  return it->second;
}

std::string condition_of(const Variant& v) {
  std::string dtypes;
  for (const auto& d : dtypes_of(v)) dtypes += (dtypes.empty() ? "" : " ") + d;
  return (v.when.empty() ? "always" : v.when.text()) + ", dtypes " + dtypes + (v.prefer.empty() ? "" : ", preferred when " + v.prefer.text());
}

}  // namespace

const std::vector<Variant>& our_variants(const std::string& op) {
  static const std::vector<Variant> none;
  const Library& lib = library();
  auto it = lib.find(op);
  return it == lib.end() ? none : it->second;
}

std::vector<std::string> ops_with_plans() {
  std::vector<std::string> v;
  for (const auto& name : Registry::get().names())
    if (!our_variants(name).empty()) v.push_back(name);
  return v;
}

const Variant& select_variant(const std::vector<Variant>& variants, const Problem& p) {
  // A variant in a numeric mode other than exact (a Winograd convolution) runs only where no exact one
  // serves the problem: what runs, and is timed, computes what the exact contract judges.
  for (const bool exact : {true, false}) {
    for (const auto& v : variants)
      if (computes_exactly(v) == exact && preferred(v, p)) return v;
    for (const auto& v : variants)  // none prefers p: the first that serves it
      if (computes_exactly(v) == exact && applies(v, p)) return v;
  }
  if (variants.empty()) throw Error("operator '" + p.op() + "' has no OpenCL kernel");
  std::string conds;
  for (const auto& v : variants) {
    conds += "\n  " + v.id() + " (" + v.where.str() + "): when " + condition_of(v);
    // A numeric mode's own condition (core/numeric_mode.hpp), said as the mode's.
    if (!v.math.empty() && !NumericMode::parse(v.math).condition(p.op()).empty())
      conds += " (its numeric mode " + v.math + " computes only problems with " + NumericMode::parse(v.math).condition(p.op()) + ")";
  }
  throw Error("no variant of " + p.op() + " applies to " + p.line() + ":" + conds);
}

const Variant& find_variant(const std::vector<Variant>& variants, const std::string& name, const std::string& op) {
  for (const auto& v : variants)
    if (v.name == name) return v;
  std::string names;
  for (const auto& v : variants) names += (names.empty() ? "" : ", ") + v.name;
  throw Error(op + " has no variant '" + name + "'" + (names.empty() ? "" : "; its variants: " + names));
}

}  // namespace plumbline::plans
