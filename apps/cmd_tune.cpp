// `plumbline tune OP`: searches the tuning space of OP's tunable variants on a device, per shape class
// of the problems given; every candidate is checked before it is timed (tune/tuner.hpp); the winners
// go to the tuning database (opencl/tuning/<device>.tuning), which launches on that device then use.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/commands.hpp"
#include "apps/kernel_flags.hpp"
#include "bench/batch.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "opencl/device.hpp"
#include "tune/tuner.hpp"

namespace plumbline::apps {

void add_tune_command(CLI::App& app, Context& ctx) {
  struct Options {
    std::string op, device, db, json;
    std::vector<std::string> batches, problems, start;
    plans::KernelSource source;
    double budget = 60;
    int check_cases = 12, repetitions = 5;
    uint64_t seed = 1;
    bool dry_run = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("tune", "Tune an operator's kernels on a device: candidates checked, then timed; winners to the tuning database");
  cmd->add_option("op", opt->op, "the operator")->required();
  cmd->add_option("--batch", opt->batches, "batch files: their problems of OP (repeatable)");
  cmd->add_option("--problem", opt->problems, "a problem line (repeatable)");
  cmd->add_option("--device", opt->device, "device selector (default: PLUMBLINE_DEVICE, else all); each device is tuned in turn");
  cmd->add_option("--budget", opt->budget, "seconds of search per device, shared by the variants and shape classes")->check(CLI::PositiveNumber);
  cmd->add_option("--check-cases", opt->check_cases, "cases at each candidate's tile boundaries before it is timed")->check(CLI::PositiveNumber);
  cmd->add_option("--repetitions", opt->repetitions, "timed repetitions per problem (the median counts)")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "seed of the search and of the checks");
  cmd->add_option("--start", opt->start, "a candidate to try first, e.g. 'MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16' (repeatable)");
  cmd->add_option("--db", opt->db, "tuning database folder to write (default: this tree's opencl/tuning, or PLUMBLINE_TUNING_DIR)");
  cmd->add_flag("--dry-run", opt->dry_run, "print the winners, write nothing");
  cmd->add_option("--json", opt->json, "every candidate tried, with its verdict and time");
  cmd->add_option("--plan", opt->source.plan_file, "tune a plan file's variants instead of ours");
  cmd->add_option("--variant", opt->source.variant, "only this variant");
  cmd->callback([opt, &ctx] {
    Registry::get().find(opt->op);
    tune::TuneOptions o;
    o.op = opt->op;
    o.budget_seconds = opt->budget;
    o.check_cases = opt->check_cases;
    o.repetitions = opt->repetitions;
    o.seed = opt->seed;
    for (const auto& text : opt->start) {
      tune::Defines d;
      std::string items = text;
      std::replace(items.begin(), items.end(), ',', ' ');
      std::istringstream ss(items);
      for (std::string item; ss >> item;) {
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) throw Error("--start '" + text + "': '" + item + "' must be NAME=VALUE");
        d.emplace_back(item.substr(0, eq), item.substr(eq + 1));
      }
      o.start.push_back(d);
    }
    for (const auto& f : opt->batches)
      for (const auto& e : bench::read_batch(f))
        if (e.problem.op() == opt->op) o.problems.push_back(e.problem);
    for (const auto& line : opt->problems) {
      const Problem p = Problem::parse(line);
      if (p.op() != opt->op) throw Error("--problem '" + line + "' is not a problem of " + opt->op);
      o.problems.push_back(p);
    }
    o.progress = [](const std::string& line) {
      std::cout << line << "\n";
      std::cout.flush();
    };
    const std::time_t now = std::time(nullptr);
    char date[16];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    nlohmann::json out = nlohmann::json::array();
    int wrong = 0;
    for (const auto& device : ocl::select_devices(opt->device.empty() ? ocl::default_selector() : opt->device)) {
      ocl::Runtime rt(device);
      KernelChecker kc(rt, opt->source);
      std::cout << "tuning " << opt->op << " on " << device.selector << " (" << device.name << ", driver " << device.driver_version << "), "
                << o.problems.size() << " problems, budget " << opt->budget << " s\n";
      // Our plans' winners go to our database (or --db); a plan file's only to a --db of its own: the
      // database applies to our plans, a plan file takes its winners as its defaults (docs/tuning.md).
      // Each class's entry is written as soon as it has a best candidate and again when its search
      // ends, so that a run cut off (a timeout, ^C) keeps what it found.
      const bool write = !opt->dry_run && (opt->source.ours() || !opt->db.empty());
      const std::string path = (opt->db.empty() ? plans::tuning_dir() : opt->db) + "/" + plans::tuning_file_name(device.name);
      o.on_best = [&](const tune::ClassResult& r, bool finished) {
        if (write) plans::merge_tuning(path, {tune::entry_for(r, opt->op, device, date, finished)});
      };
      // What lets a device of the same architecture take the entries this run writes (plans/tuning.hpp):
      // named once, before the search, so that a run cut off keeps it with what it wrote.
      if (write && !device.architecture.empty())
        plans::merge_architecture(std::filesystem::path(path).parent_path().string(), device.name, device.architecture);
      const auto results = tune::tune(kc, o);
      std::vector<plans::TuningEntry> entries;
      for (const auto& r : results) {
        wrong += r.count("wrong");
        nlohmann::json tried = nlohmann::json::array();
        for (const auto& c : r.tried)
          tried.push_back({{"defines", tune::to_string(c.defines)}, {"status", c.status}, {"message", c.message}, {"seconds", c.seconds}});
        out.push_back({{"device", device.name},
                       {"driver", device.driver_version},
                       {"op", opt->op},
                       {"variant", r.variant},
                       {"class", r.shape_class},
                       {"flops", r.flops},
                       {"candidates", tried}});
        if (!r.best) {
          std::cout << opt->op << "/" << r.variant << " " << r.shape_class << ": no candidate passed its checks; the defaults stay\n";
          continue;
        }
        entries.push_back(tune::entry_for(r, opt->op, device, date));
        std::cout << "winner " << opt->op << "/" << r.variant << " " << r.shape_class << ": " << tune::to_string(r.best->defines) << "  "
                  << entries.back().evidence << "\n";
      }
      if (!entries.empty() && write) std::cout << "tuning database: " << path << "\n";
    }
    if (wrong)
      std::cout
          << wrong
          << " candidate(s) computed wrong numbers and were discarded (above, with their repros): each is a bug of the kernel at those defines\n";
    if (!opt->json.empty()) {
      std::ofstream f(opt->json);
      if (!f) throw Error("cannot write " + opt->json);
      f << nlohmann::json{{"kind", "tune"}, {"results", out}}.dump(1) << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, 0);
  });
}

}  // namespace plumbline::apps
