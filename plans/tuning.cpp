#include "plans/tuning.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "core/error.hpp"
#include "core/text.hpp"
#include "plans/library.hpp"

namespace plumbline::plans {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t bar = line.find(" | ", start);
    out.push_back(trim(line.substr(start, bar == std::string::npos ? std::string::npos : bar - start)));
    if (bar == std::string::npos) return out;
    start = bar + 3;
  }
}

const char* kHeader =
    "# plumbline's tuning database (docs/tuning.md): written by `plumbline tune`, reviewed like code.\n"
    "# device | driver | op | variant | class | defines | evidence\n";

const char* kArchitecturesHeader =
    "# plumbline's tuning database (docs/tuning.md): each device's architecture, written by `plumbline tune`.\n"
    "# A device without an entry of its own takes the entry of a device of the same architecture.\n"
    "# device | architecture\n";

}  // namespace

std::string TuningEntry::defines_text() const {
  if (off) return "off";
  std::string s;
  for (const auto& [n, v] : defines) s += (s.empty() ? "" : " ") + n + "=" + v;
  return s;
}

std::string TuningEntry::line() const {
  return device + " | " + driver + " | " + op + " | " + variant + " | " + shape_class + " | " + defines_text() + " | " + evidence;
}

std::string tuning_dir() {
  const char* env = std::getenv("PLUMBLINE_TUNING_DIR");
  return env && *env ? env : default_tuning_dir();
}

std::map<std::string, std::string> read_architectures(const std::string& dir) {
  std::map<std::string, std::string> out;
  const fs::path path = fs::path(dir) / "architectures";
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const Where w{path.string(), n};
    const auto f = fields(line);
    if (f.size() != 2 || f[0].empty() || f[1].empty())
      throw Error(w.str() + ": a line of `architectures` is 'device | architecture' (e.g. 'NVIDIA H200 | NVIDIA sm_90')");
    if (!out.emplace(f[0], f[1]).second) throw Error(w.str() + ": device '" + f[0] + "' is named twice");
  }
  return out;
}

void merge_architecture(const std::string& dir, const std::string& device, const std::string& architecture) {
  if (trim(device).empty() || trim(architecture).empty() || device.find(" | ") != std::string::npos || architecture.find('\n') != std::string::npos)
    throw Error("cannot name architecture '" + architecture + "' for device '" + device + "' in " + dir + "/architectures");
  auto known = read_architectures(dir);
  if (known.count(device) && known[device] == architecture) return;
  known[device] = architecture;
  fs::create_directories(dir);
  const std::string path = (fs::path(dir) / "architectures").string(), tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error("cannot write " + tmp);
    out << kArchitecturesHeader;
    for (const auto& [d, a] : known) out << d << " | " << a << "\n";
  }
  fs::rename(tmp, path);
}

std::vector<TuningEntry> read_tuning(const std::string& dir) {
  const auto architectures = read_architectures(dir);
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".tuning") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<TuningEntry> out;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (trim(line).empty() || trim(line)[0] == '#') continue;
      const Where w{f.string(), n};
      const auto fs_ = fields(line);
      if (fs_.size() != 7)
        throw Error(w.str() +
                    ": a tuning entry has 7 fields separated by ' | ' (device | driver | op | variant | class | defines | evidence), this line has " +
                    std::to_string(fs_.size()));
      TuningEntry e{fs_[0], fs_[1], fs_[2], fs_[3], fs_[4], {}, fs_[5] == "off", fs_[6], {}, w};
      if (auto a = architectures.find(e.device); a != architectures.end()) e.architecture = a->second;
      std::istringstream ds(e.off ? std::string() : fs_[5]);
      std::string d;
      while (ds >> d) {
        const size_t eq = d.find('=');
        if (eq == std::string::npos || eq == 0) throw Error(w.str() + ": define '" + d + "' must be NAME=VALUE");
        e.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
      }
      for (const auto& o : out)
        if (o.device == e.device && o.driver == e.driver && o.op == e.op && o.variant == e.variant && o.shape_class == e.shape_class)
          throw Error(w.str() + ": a second entry for " + e.op + "/" + e.variant + " class " + e.shape_class +
                      " on this device and driver (first at " + o.where.str() + ")");
      out.push_back(std::move(e));
    }
  }
  return out;
}

const std::vector<TuningEntry>& tuning_database() {
  static std::mutex mutex;
  static std::map<std::string, std::vector<TuningEntry>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string dir = tuning_dir();
  auto it = loaded.find(dir);
  if (it == loaded.end()) it = loaded.emplace(dir, read_tuning(dir)).first;
  return it->second;
}

const TuningEntry* find_tuning(const std::vector<TuningEntry>& db, const std::string& device, const std::string& driver,
                               const std::string& architecture, const std::string& op, const std::string& variant, const std::string& shape_class) {
  // In order of preference: this device and driver, this device, this architecture and driver, this architecture.
  const TuningEntry* best[4] = {};
  for (const auto& e : db) {
    if (e.op != op || e.variant != variant || e.shape_class != shape_class) continue;
    const bool own = e.device == device;
    if (!own && (architecture.empty() || e.architecture != architecture)) continue;
    const int rank = (own ? 0 : 2) + (e.driver == driver ? 0 : 1);
    if (!best[rank]) best[rank] = &e;
  }
  for (const TuningEntry* e : best)
    if (e) return e;
  return nullptr;
}

std::string tuning_file_name(const std::string& device) {
  std::string s;
  for (char c : device) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!s.empty() && s.back() != '-')
      s += '-';
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s + ".tuning";
}

void merge_tuning(const std::string& path, const std::vector<TuningEntry>& entries) {
  std::vector<std::string> kept;
  if (std::ifstream in(path); in) {
    std::string line;
    while (std::getline(in, line)) {
      if (trim(line).empty() || trim(line)[0] == '#') continue;
      const auto f = fields(line);
      const bool replaced = f.size() == 7 && std::any_of(entries.begin(), entries.end(), [&](const TuningEntry& e) {
                              return e.device == f[0] && e.driver == f[1] && e.op == f[2] && e.variant == f[3] && e.shape_class == f[4];
                            });
      if (!replaced) kept.push_back(line);
    }
  }
  for (const auto& e : entries) kept.push_back(e.line());
  std::sort(kept.begin(), kept.end());
  fs::create_directories(fs::path(path).parent_path());
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error("cannot write " + tmp);
    out << kHeader;
    for (const auto& l : kept) out << l << "\n";
  }
  fs::rename(tmp, path);
}

}  // namespace plumbline::plans
