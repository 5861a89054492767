// `plumbline report merge DIR... --out OUT`: joins the output folders of a gate's shards (a CI matrix of
// `plumbline gate --shard I/N`) into one: every case, failure, rule verdict and benchmark once, the steps'
// verdicts combined, then one report and one JUnit file.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "core/error.hpp"

namespace plumbline::apps {

namespace fs = std::filesystem;

namespace {

nlohmann::json read(const fs::path& p) {
  std::ifstream f(p);
  if (!f) return nullptr;
  try {
    return nlohmann::json::parse(f);
  } catch (const std::exception& e) {
    throw Error(p.string() + ": not valid JSON (" + e.what() + ")");
  }
}

// The shards' documents of one file merged: the arrays under `lists` concatenated, the counts under
// `sums` added, everything else from the first shard that has the file.
nlohmann::json merge_file(const std::vector<nlohmann::json>& docs, const std::vector<std::string>& lists, const std::vector<std::string>& sums) {
  nlohmann::json out = nullptr;
  for (const auto& d : docs) {
    if (!d.is_object()) continue;
    if (out.is_null()) {
      out = d;
      continue;
    }
    for (const auto& k : lists)
      if (d.contains(k))
        for (const auto& x : d[k]) out[k].push_back(x);
    for (const auto& k : sums)
      if (d.contains(k) && d[k].is_number()) out[k] = out.value(k, 0) + d[k].get<int>();
  }
  return out;
}

// The gate's steps over the shards: a step failed if it failed anywhere, passed if it passed somewhere
// and failed nowhere; its time is the longest shard's.
nlohmann::json merge_summaries(const std::vector<nlohmann::json>& docs) {
  nlohmann::json out = nullptr;
  std::vector<std::string> order;
  std::map<std::string, nlohmann::json> steps;
  bool passed = true;
  int count = 0;
  for (const auto& d : docs) {
    if (!d.is_object()) continue;
    ++count;
    if (out.is_null()) out = d;
    passed = passed && d.value("passed", false);
    for (const auto& s : d["steps"]) {
      const std::string name = s["name"];
      if (!steps.count(name)) {
        order.push_back(name);
        steps[name] = s;
        continue;
      }
      auto& m = steps[name];
      const std::string a = m["status"], b = s["status"];
      auto rank = [](const std::string& x) { return x == "ERROR" ? 3 : x == "FAIL" ? 2 : x == "pass" ? 1 : 0; };
      if (rank(b) > rank(a)) m["status"] = b;
      m["seconds"] = std::max(m["seconds"].get<double>(), s["seconds"].get<double>());
      if (s["details"] != "" && s["details"] != m["details"])
        m["details"] = m["details"].get<std::string>() + " | " + s["details"].get<std::string>();
    }
  }
  if (out.is_null()) return out;
  out["steps"] = nlohmann::json::array();
  for (const auto& n : order) out["steps"].push_back(steps[n]);
  out["passed"] = passed;
  out["shard"] = "merged from " + std::to_string(count) + " shards";
  return out;
}

}  // namespace

void add_report_command(CLI::App& app, Context& ctx) {
  auto* report = app.add_subcommand("report", "Gate outputs: merge the shards of a CI matrix into one report");
  report->require_subcommand(1);
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto no_report = std::make_shared<bool>(false);
  auto* merge = report->add_subcommand("merge", "Join the output folders of `plumbline gate --shard I/N` runs into one");
  merge->add_option("dirs", *dirs, "the shards' output folders")->required();
  merge->add_option("--out", *out, "the merged output folder")->required();
  merge->add_flag("--no-report", *no_report, "write the merged JSON only");
  merge->callback([dirs, out, no_report, &ctx] {
    for (const auto& d : *dirs)
      if (!fs::is_directory(d)) throw Error("report merge: '" + d + "' is not a folder");
    fs::create_directories(*out);
    struct File {
      const char* name;
      std::vector<std::string> lists, sums;
    };
    const std::vector<File> files{{"check.json", {"cases", "failures"}, {}},
                                  {"gradcheck.json", {"cases", "failures"}, {}},
                                  {"sanitizer.json", {"cases", "failures"}, {}},
                                  {"rules.json", {"rules"}, {}},
                                  {"graphs.json", {}, {}},
                                  {"bench.json", {"benchmarks"}, {}},
                                  {"regression.json", {"benchmarks"}, {"regressions", "failures", "drifted"}},
                                  {"paired.json", {"results"}, {}},
                                  {"mutants.json", {}, {}}};
    for (const auto& f : files) {
      std::vector<nlohmann::json> docs;
      for (const auto& d : *dirs) docs.push_back(read(fs::path(d) / f.name));
      const nlohmann::json m = merge_file(docs, f.lists, f.sums);
      if (!m.is_null()) std::ofstream(fs::path(*out) / f.name) << m.dump(1) << "\n";
    }
    std::vector<nlohmann::json> summaries;
    for (const auto& d : *dirs) summaries.push_back(read(fs::path(d) / "summary.json"));
    const nlohmann::json summary = merge_summaries(summaries);
    if (summary.is_null()) throw Error("report merge: no summary.json in any of the folders (are they gate outputs?)");
    std::ofstream(fs::path(*out) / "summary.json") << summary.dump(1) << "\n";
    std::cout << "merged " << dirs->size() << " shards into " << *out << ": " << (summary["passed"].get<bool>() ? "passed" : "FAILED") << "\n";
    if (!*no_report) {
      const std::string cmd = "/usr/bin/python3 '" + std::string(PLUMBLINE_SOURCE_DIR) + "/reports/make_report.py' '" + *out + "'";
      if (std::system(cmd.c_str()) != 0) throw Error("report merge: the report could not be written (" + cmd + ")");
    }
    ctx.exit_code = std::max(ctx.exit_code, summary["passed"].get<bool>() ? 0 : 1);
  });
}

}  // namespace plumbline::apps
