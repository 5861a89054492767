#include "opencl/oclgrind.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/error.hpp"
#include "opencl/device.hpp"

namespace plumbline::ocl {

namespace fs = std::filesystem;

namespace {

std::atomic<bool> opencl_started{false};

// Where Debian's package (and an installation from source) puts Oclgrind's ICD library.
std::string find_icd_library() {
  for (const char* p : {"/usr/lib/oclgrind/liboclgrind-rt-icd.so", "/usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so",
                        "/usr/local/lib/liboclgrind-rt-icd.so", "/usr/lib/liboclgrind-rt-icd.so"})
    if (fs::exists(p)) return p;
  return "";
}

}  // namespace

bool names_oclgrind(const std::string& selector) { return selector.find("oclgrind") != std::string::npos; }

void note_opencl_started() { opencl_started = true; }

bool is_oclgrind(const DeviceInfo& device) { return device.platform_name.rfind("Oclgrind", 0) == 0; }

void register_oclgrind() {
  static bool registered = false;
  if (registered) return;
  if (opencl_started)
    throw Error(
        "Oclgrind is registered before the first OpenCL call of a process, and this one has listed its devices already: "
        "name oclgrind in the first --device or PLUMBLINE_DEVICE");
  const std::string library = find_icd_library();
  if (library.empty())
    throw Error("device oclgrind:0 needs Oclgrind, an OpenCL device simulator: apt-get install oclgrind (scripts/setup.sh installs it)");
  // The machine's own drivers stay: the private folder lists their .icd files beside Oclgrind's.
  const char* vendors_env = std::getenv("OCL_ICD_VENDORS");
  const std::string system = vendors_env && *vendors_env && fs::is_directory(vendors_env) ? vendors_env : "/etc/OpenCL/vendors";
  const fs::path folder = fs::temp_directory_path() / ("plumbline_icd_" + std::to_string(::getpid()));
  fs::create_directories(folder);
  if (fs::is_directory(system))
    for (const auto& e : fs::directory_iterator(system))
      if (e.path().extension() == ".icd" && e.path().filename() != "oclgrind.icd")
        fs::copy_file(e.path(), folder / e.path().filename(), fs::copy_options::overwrite_existing);
  std::ofstream(folder / "oclgrind.icd") << library << "\n";
  setenv("OCL_ICD_VENDORS", folder.c_str(), 1);
  // Its detectors (the bounds of every access are always checked), and every report kept: a case's
  // verdict comes from the first, its message counts them all.
  setenv("OCLGRIND_DATA_RACES", "1", 0);  // the uninitialized values' detector: per runtime (Runtime::detect_uninitialized)
  setenv("OCLGRIND_MAX_ERRORS", "100000", 0);
  // Work-groups one after the other, in order: which one is last to take a count, and so which races
  // show, is then the same every run (a verdict that a repro reproduces, a failure that shrinks).
  setenv("OCLGRIND_NUM_THREADS", "1", 0);
  // 64 KiB of local memory, as GPUs have at least: the variants that need 48 KiB (local_mem_48k) run too.
  setenv("OCLGRIND_LOCAL_MEM_SIZE", "65536", 0);
  registered = true;
}

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string verdict_of(const std::string& headline) {
  if (headline.find("data race") != std::string::npos) return "race";
  if (headline.find("divergence") != std::string::npos) return "barrier-divergence";
  if (headline.find("ninitialized") != std::string::npos) return "uninitialized";
  if (headline.rfind("Invalid read", 0) == 0 || headline.rfind("Invalid write", 0) == 0 || headline.rfind("Invalid memory", 0) == 0 ||
      headline.rfind("Unaligned address", 0) == 0)
    return "out-of-bounds";
  return "sanitizer";
}

// "Global(1,0,0) Local(1,0,0) Group(0,0,0)" -> "work-item (1,0,0) of work-group (0,0,0)"
std::string who(const std::string& entity) {
  static const std::regex ids(R"(Local(\([0-9,]+\))\s+Group(\([0-9,]+\)))");
  std::smatch m;
  if (std::regex_search(entity, m, ids)) return "work-item " + m[1].str() + " of work-group " + m[2].str();
  static const std::regex group(R"(Group(\([0-9,]+\)))");
  if (std::regex_search(entity, m, group)) return "work-group " + m[1].str();
  return trim(entity);
}

}  // namespace

std::vector<SanitizerReport> parse_oclgrind_log(const std::string& text) {
  // Messages are separated by blank lines; each starts with an unindented line, the rest indented.
  std::vector<std::vector<std::string>> messages;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    // A fatal error's reason stands unindented on the line after its headline.
    const bool continues_fatal = !messages.empty() && messages.back().size() == 1 && messages.back()[0].rfind("OCLGRIND FATAL ERROR", 0) == 0;
    if (line[0] != ' ' && line[0] != '\t' && !continues_fatal) messages.emplace_back();
    if (!messages.empty()) messages.back().push_back(line);
  }
  static const std::regex address(R"((global|local|private|constant) memory address 0x([0-9a-fA-F]+))");
  static const std::regex at(R"(At line ([0-9]+) \(column [0-9]+\) of (.*):)");
  std::vector<SanitizerReport> out;
  for (const auto& m : messages) {
    SanitizerReport r;
    r.headline = trim(m[0]);
    if (r.headline.rfind("Oclgrind: ", 0) == 0) continue;  // its own notes ("N errors generated - suppressing further errors")
    r.verdict = r.headline.rfind("OCLGRIND FATAL ERROR", 0) == 0 ? "cannot-run" : verdict_of(r.headline);
    std::smatch a;
    if (std::regex_search(r.headline, a, address)) r.memory = a[1].str(), r.address = std::stoull(a[2].str(), nullptr, 16);
    std::string entity, access, detail, group;
    for (size_t i = 1; i < m.size(); ++i) {
      const std::string l = trim(m[i]);
      std::smatch s;
      if (l.rfind("Kernel:", 0) == 0) {
        r.kernel = trim(l.substr(7));
      } else if (l.find("ntity:") != std::string::npos) {
        entity = who(l.substr(l.find(':') + 1));
        static const std::regex of_group(R"(Group(\([0-9,]+\)))");
        std::smatch g;
        const std::string rest = l.substr(l.find(':') + 1);
        group = std::regex_search(rest, g, of_group) ? g[1].str() : "";
      } else if (l.rfind("Work-group:", 0) == 0) {
        entity = "work-group " + trim(l.substr(11));
      } else if (l.rfind("Only ", 0) == 0) {
        detail = l;  // "Only 36 out of 64 work-items executed barrier"
      } else if (l.rfind("store ", 0) == 0 || l.find(" = load ") != std::string::npos || l.rfind("load ", 0) == 0) {
        access = l.rfind("store ", 0) == 0 ? "store" : "load";
      } else if (l.find(" = atomic") != std::string::npos || l.find("call ") != std::string::npos) {
        if (access.empty()) access = l.find("atomic") != std::string::npos ? "atomic" : "";
      } else if (std::regex_search(l, s, at)) {
        r.sites.push_back(
            {trim(s[2].str()), std::stoi(s[1].str()), access, entity + (detail.empty() ? "" : (entity.empty() ? "" : ", ") + detail), group});
        entity.clear(), access.clear(), detail.clear(), group.clear();
      }
    }
    if (r.sites.empty() && (!entity.empty() || !detail.empty()))
      r.sites.push_back({"", 0, access, entity + (detail.empty() ? "" : (entity.empty() ? "" : ", ") + detail), group});
    if (r.verdict == "cannot-run" && m.size() > 1) r.headline += ": " + trim(m[1]);
    out.push_back(std::move(r));
  }
  return out;
}

std::string describe(const SanitizerReport& r, const std::function<std::string(const std::string&, int)>& source_line) {
  std::string what;
  if (r.verdict == "race") {
    const size_t space = r.headline.find(" data race");
    std::string kind = r.headline.substr(0, space);  // "Read-write"
    for (auto& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    what = kind + " data race in " + (r.memory.empty() ? "memory" : r.memory + " memory");
  } else if (r.verdict == "barrier-divergence") {
    what = "a barrier that not every work-item of a work-group reaches";
  } else {
    what = r.headline;
    if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  }
  std::string out = what + (r.kernel.empty() ? "" : " in kernel " + r.kernel);
  for (size_t i = 0; i < r.sites.size(); ++i) {
    const SanitizerReport::Site& site = r.sites[i];
    out += i == 0 ? ": " : " against ";
    if (site.line > 0) {
      out += "line " + std::to_string(site.line) + " of " + site.file;
      const std::string text = source_line ? source_line(site.file, site.line) : "";
      if (!text.empty()) out += " `" + text + "`";
    }
    const std::string by = (site.access.empty() ? "" : "a " + site.access + (site.who.empty() ? "" : " by ")) + site.who;
    if (!by.empty()) out += site.line > 0 ? " (" + by + ")" : by;
  }
  return out;
}

}  // namespace plumbline::ocl
