#include "mutants/catalogue.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/numeric_mode.hpp"
#include "core/registry.hpp"
#include "plans/source.hpp"

namespace plumbline::mutants {

std::vector<CatalogueBug> load_catalogue(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".cl") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<CatalogueBug> bugs;
  for (const auto& f : files) {
    std::ifstream in(f);
    CatalogueBug b;
    b.name = f.stem().string();
    b.path = f.string();
    std::string line, entries, plan;
    for (int i = 0; i < 5 && std::getline(in, line); ++i) {
      auto field = [&](const char* key, std::string& into) {
        const std::string k = std::string("// ") + key + ": ";
        if (line.rfind(k, 0) == 0) into = line.substr(k.size());
      };
      field("bug", b.description);
      field("op", b.op);
      field("entries", entries);
      field("plan", plan);
      field("sanitize", b.sanitize);
      field("math", b.math);
    }
    if (b.description.empty()) continue;  // not a catalogued bug
    if (b.op.empty() || entries.empty() == plan.empty())
      throw Error(b.path + ": a catalogued bug needs '// op:' and either '// entries:' or '// plan:' lines after '// bug:'");
    Registry::get().find(b.op);
    if (!b.sanitize.empty() && b.sanitize != "race" && b.sanitize != "uninitialized" && b.sanitize != "barrier-divergence" &&
        b.sanitize != "out-of-bounds")
      throw Error(b.path + ": '// sanitize: " + b.sanitize + "': the verdict is one of race, uninitialized, barrier-divergence, out-of-bounds");
    if (!b.math.empty()) NumericMode::parse(b.math);  // an unknown mode: the error listing them
    if (!plan.empty()) b.plan = (f.parent_path() / plan).string();
    size_t start = 0;
    while (!entries.empty() && start <= entries.size()) {
      const size_t end = entries.find(',', start);
      b.entries.push_back(entries.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    try {
      plans::variants_for(b.source(), b.op);  // the entries must fit the operator's default ABI
    } catch (const Error& e) {
      throw Error(b.path + ": " + e.what());
    }
    bugs.push_back(std::move(b));
  }
  return bugs;
}

std::string catalogue_dir() { return PLUMBLINE_CATALOGUE_DIR; }

}  // namespace plumbline::mutants
