// `plumbline mutants`: detection power. Every catalogued bug (mutants/catalogue/) and every
// systematic mutant of our kernels (mutants/systematic.hpp) is hunted with the kernel properties;
// each is killed (after how many cases, with the shrunk repro) or survives. Exit 1 if a catalogued
// bug survives, or the systematic mutation score falls below --min-score.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/commands.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "mutants/catalogue.hpp"
#include "mutants/hunt.hpp"
#include "mutants/systematic.hpp"
#include "opencl/device.hpp"

namespace fs = std::filesystem;

namespace plumbline::apps {

void add_mutants_command(CLI::App& app, Context& ctx) {
  struct Options {
    std::string op, device, json;
    std::vector<std::string> only;
    bool catalogue = false, systematic = false;
    int cases = 100, mutant_cases = 56, every = 1, offset = 0;
    double min_score = 0.95;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("mutants", "Detection power: catalogued bugs and systematic mutants, killed or survived");
  cmd->add_option("--op", opt->op, "only bugs and mutants of this operator");
  cmd->add_flag("--catalogue", opt->catalogue, "the catalogued bugs only");
  cmd->add_flag("--systematic", opt->systematic, "the systematic mutants only");
  cmd->add_option("--cases", opt->cases, "cases per catalogued bug (as plumbline check)")->check(CLI::PositiveNumber);
  cmd->add_option("--mutant-cases", opt->mutant_cases, "cases per operator for each systematic mutant")->check(CLI::PositiveNumber);
  cmd->add_option("--every", opt->every, "run every k-th systematic mutant (a deterministic sample)")->check(CLI::PositiveNumber);
  cmd->add_option("--offset", opt->offset, "with --every k: start at this mutant (0 .. k-1), to split a run into shards");
  cmd->add_option("--mutant", opt->only, "only the systematic mutant with this id (repeatable), as printed");
  cmd->add_option("--min-score", opt->min_score, "fail below this systematic mutation score");
  cmd->add_option("--device", opt->device, "device selector (default: the first device found)");
  cmd->add_option("--seed", opt->seed, "seed of the cases");
  cmd->add_option("--json", opt->json, "write every result to this JSON file (the report reads it)");
  cmd->callback([opt, &ctx] {
    if (!opt->op.empty()) Registry::get().find(opt->op);
    const bool both = !opt->catalogue && !opt->systematic;
    // The bugs of concurrency are hunted on the device simulator, registered before OpenCL's first call.
    std::vector<mutants::CatalogueBug> catalogue;
    if (opt->catalogue || both) catalogue = mutants::load_catalogue(mutants::catalogue_dir());
    const bool sanitize =
        std::any_of(catalogue.begin(), catalogue.end(), [&](const auto& b) { return !b.sanitize.empty() && (opt->op.empty() || b.op == opt->op); });
    if (sanitize) ocl::register_oclgrind();
    const auto devices = ocl::select_devices(opt->device.empty() ? (ocl::select_devices("all").front().selector) : opt->device);
    const ocl::DeviceInfo& device = devices.front();
    std::unique_ptr<ocl::Runtime> simulator;
    if (sanitize) simulator = std::make_unique<ocl::Runtime>(ocl::select_devices("oclgrind:0").front(), ocl::Builds::ForChecks);
    nlohmann::json results = nlohmann::json::array();
    bool ok = true;
    std::map<std::string, std::vector<int>> detection_by_family;

    if (opt->catalogue || both) {
      ocl::Runtime rt(device, ocl::Builds::ForChecks);
      int killed = 0, total = 0;
      for (const auto& bug : catalogue) {
        if (!opt->op.empty() && bug.op != opt->op) continue;
        ++total;
        KernelChecker kc(bug.sanitize.empty() ? rt : *simulator, bug.source());
        mutants::Hunt h;
        std::string error;
        try {
          h = bug.sanitize.empty() ? mutants::hunt(kc, bug.op, opt->cases, opt->seed) : mutants::hunt_sanitized(kc, bug.op, opt->seed);
        } catch (const Error& e) {
          error = e.what();  // a catalogued kernel that does not build is a broken catalogue, not a kill
        }
        // A bug of concurrency counts as killed by the verdict of its class alone (a race, not numbers).
        if (h.killed && !bug.sanitize.empty() && h.verdict != bug.sanitize)
          error = "killed as [" + h.verdict + "], not as the [" + bug.sanitize + "] its header promises", h.killed = false;
        killed += h.killed;
        ok = ok && h.killed;
        if (h.killed) detection_by_family[Registry::get().find(bug.op).family].push_back(h.cases_to_detection);
        std::printf("%-40s %-18s %s", bug.name.c_str(), bug.op.c_str(), h.killed ? "killed" : "SURVIVED");
        if (!bug.sanitize.empty()) std::printf(" (sanitizer pass on %s)", simulator->device().selector.c_str());
        if (h.killed) std::printf(" after %d case%s [%s]", h.cases_to_detection, h.cases_to_detection == 1 ? "" : "s", h.verdict.c_str());
        std::printf("\n");
        if (!error.empty()) std::cout << "  error: " << error << "\n";
        results.push_back({{"name", bug.name},
                           {"kind", "catalogue"},
                           {"op", bug.op},
                           {"family", Registry::get().find(bug.op).family},
                           {"description", bug.description},
                           {"killed", h.killed},
                           {"cases", h.cases},
                           {"cases_to_detection", h.killed ? nlohmann::json(h.cases_to_detection) : nlohmann::json(nullptr)},
                           {"verdict", h.verdict},
                           {"message", error.empty() ? h.message : error},
                           {"problem", h.problem},
                           {"repro", h.repro}});
      }
      std::printf("catalogue: %d of %d bugs killed on %s%s\n", killed, total, device.selector.c_str(),
                  sanitize ? " (those of concurrency on the simulator)" : "");
    }

    double score = 1;
    if (opt->systematic || both) {
      // Each mutant: a copy of the kernel directory with one change, built with the disk cache off.
      const std::string original = ocl::kernel_dir();
      const fs::path tmp = fs::temp_directory_path() / ("plumbline_mutants_" + std::to_string(::getpid()));
      fs::create_directories(tmp);
      for (const auto& e : fs::directory_iterator(original)) fs::copy_file(e.path(), tmp / e.path().filename(), fs::copy_options::overwrite_existing);
      const auto equivalent = mutants::load_equivalent(std::string(PLUMBLINE_SOURCE_DIR) + "/mutants/equivalent.txt");
      const auto all = mutants::enumerate_mutations(original);
      int killed = 0, survived = 0, stillborn = 0, excluded = 0, index = -1;
      // Each (mutant, operator) runs as its own `plumbline check` process: a mutant that writes far out
      // of bounds corrupts the memory of a CPU device's host process, and must not take the run down.
      const std::string self = fs::read_symlink("/proc/self/exe").string();
      const fs::path result = tmp / "check.json";
      for (const auto& m : all) {
        const auto ops = mutants::ops_using(original, m.file);
        if (!opt->op.empty() && std::find(ops.begin(), ops.end(), opt->op) == ops.end()) continue;
        if (++index % opt->every != opt->offset % opt->every) continue;
        if (!opt->only.empty() && std::find(opt->only.begin(), opt->only.end(), m.id()) == opt->only.end()) continue;
        std::string source;
        {
          std::ifstream in(fs::path(original) / m.file);
          std::stringstream ss;
          ss << in.rdbuf();
          source = ss.str();
        }
        std::ofstream(tmp / m.file) << mutants::apply(source, m);
        std::string status = "SURVIVED", killer, message;
        int detection = 0;
        for (const auto& op : ops) {
          if (!opt->op.empty() && op != opt->op) continue;
          fs::remove(result);
          const std::string cmd = "PLUMBLINE_KERNEL_DIR='" + tmp.string() + "' PLUMBLINE_CACHE_DIR=off '" + self + "' check " + op + " --cases " +
                                  std::to_string(opt->mutant_cases) + " --seed " + std::to_string(opt->seed) + " --device '" + device.selector +
                                  "' --first-failure --json '" + result.string() + "' > '" + (tmp / "check.log").string() + "' 2>&1";
          const int raw = std::system(cmd.c_str());
          const int code = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128;
          std::ifstream log(tmp / "check.log");
          std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
          if (code == 0) continue;
          if (code == 2 && (text.find("build") != std::string::npos || text.find("CL_INVALID") != std::string::npos)) {
            status = "stillborn";  // the compiler rejects it: nothing for the tests to catch
            break;
          }
          status = "killed";
          killer = op;
          std::ifstream rj(result);
          if (code == 1 && rj) {
            const auto j = nlohmann::json::parse(rj);
            for (size_t i = 0; i < j["cases"].size(); ++i)
              if (!j["cases"][i]["passed"].get<bool>()) {
                detection = static_cast<int>(i) + 1;
                message = j["cases"][i]["verdict"].get<std::string>() + ": " + j["cases"][i]["message"].get<std::string>();
                break;
              }
          } else {
            message = code >= 128 ? "the check process crashed (the mutant corrupted memory)" : "exit " + std::to_string(code);
            detection = 1;
          }
          break;
        }
        if (status == "SURVIVED" && equivalent.contains(m.id())) status = "equivalent";
        std::ofstream(tmp / m.file) << source;
        killed += status == "killed";
        survived += status == "SURVIVED";
        stillborn += status == "stillborn";
        excluded += status == "equivalent";
        if (status == "killed" && detection > 0) detection_by_family[Registry::get().find(killer).family].push_back(detection);
        if (status != "killed" && status != "stillborn") std::printf("%-52s %-14s %s\n", m.id().c_str(), m.kind.c_str(), status.c_str());
        std::fflush(stdout);
        results.push_back({{"name", m.id()},
                           {"kind", m.kind},
                           {"op", killer.empty() ? (ops.empty() ? "" : ops.front()) : killer},
                           {"description", m.file + " line " + std::to_string(m.line) + ": '" + m.from + "' -> '" + m.to + "'"},
                           {"killed", status == "killed"},
                           {"equivalent", status == "equivalent"},
                           {"stillborn", status == "stillborn"},
                           {"argument", equivalent.contains(m.id()) ? equivalent.at(m.id()) : ""},
                           {"cases_to_detection", status == "killed" ? nlohmann::json(detection) : nlohmann::json(nullptr)},
                           {"message", message}});
      }
      fs::remove_all(tmp);
      const int counted = killed + survived;
      score = counted ? static_cast<double>(killed) / counted : 1;
      std::printf("systematic: %d mutants run (every %d of %zu), %d killed, %d survived, %d equivalent (excluded), %d stillborn; score %.1f%%\n",
                  killed + survived + stillborn + excluded, opt->every, all.size(), killed, survived, excluded, stillborn, 100 * score);
      ok = ok && score >= opt->min_score;
    }
    nlohmann::json medians = nlohmann::json::object();
    for (auto& [family, v] : detection_by_family) {
      std::sort(v.begin(), v.end());
      medians[family] = v[v.size() / 2];
      std::printf("median cases to detection, %-12s %d (%zu kills)\n", family.c_str(), v[v.size() / 2], v.size());
    }
    if (!opt->json.empty()) {
      std::ofstream f(opt->json);
      if (!f) throw Error("cannot write " + opt->json);
      f << nlohmann::json{{"kind", "mutants"},         {"device", device.selector},
                          {"systematic_score", score}, {"median_cases_to_detection", medians},
                          {"mutants", results},        {"summary", "catalogue and systematic mutants on " + device.selector}}
               .dump(1)
        << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, ok ? 0 : 1);
  });
}

}  // namespace plumbline::apps
