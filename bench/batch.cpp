#include "bench/batch.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace plumbline::bench {

std::vector<BatchEntry> read_batch(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read batch file '" + path + "'");
  std::vector<BatchEntry> out;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    const size_t hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    text.erase(0, text.find_first_not_of(" \t\r"));
    text.erase(text.find_last_not_of(" \t\r") + 1);
    if (text.empty()) continue;
    try {
      out.push_back({Problem::parse(text), path, line});
    } catch (const Error& e) {
      throw Error(path + ":" + std::to_string(line) + ": " + e.what());
    }
  }
  return out;
}

std::string batch_dir() { return PLUMBLINE_BATCH_DIR; }

std::vector<std::string> real_layer_batches() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(batch_dir()))
    if (e.path().extension() == ".batch" && e.path().filename() != "smoke.batch") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string smoke_batch() { return batch_dir() + "/smoke.batch"; }

}  // namespace plumbline::bench
