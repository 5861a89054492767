// plumbline: tells a kernel author, with evidence, whether each kernel is right and how fast it is.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "apps/commands.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "plans/library.hpp"

namespace plumbline::apps {

std::vector<std::string> select_ops(const std::string& name, bool all, bool (*keep)(const std::string&)) {
  std::vector<std::string> ops;
  if (all == !name.empty()) throw Error("name one operator, or give --all");
  if (!all) {
    Registry::get().find(name);  // an unknown name is an error that lists the known ones
    if (keep && !keep(name)) {
      // A forward operator stands for its backward operators.
      for (const auto& s : Registry::get().all())
        if (s.forward == name) ops.push_back(s.name);
      if (ops.empty()) throw Error("operator '" + name + "' does not apply here");
      return ops;
    }
    return {name};
  }
  for (const auto& s : Registry::get().all())
    if (!keep || keep(s.name)) ops.push_back(s.name);
  return ops;
}

Shard parse_shard(const std::string& text) {
  std::string t = text;
  if (t.empty()) {
    const char* i = std::getenv("GTEST_SHARD_INDEX");
    const char* n = std::getenv("GTEST_TOTAL_SHARDS");
    if (!i || !n) return {};
    t = std::string(i) + "/" + n;
  }
  const size_t slash = t.find('/');
  Shard s;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    size_t used = 0;
    s.index = std::stoi(t.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("");
    s.count = std::stoi(t.substr(slash + 1), &used);
    if (used != t.size() - slash - 1) throw std::invalid_argument("");
  } catch (const std::exception&) {
    throw Error("shard '" + t + "' must be I/N with whole numbers, e.g. 0/4");
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count) throw Error("shard '" + t + "': I must be in 0 .. N-1 and N at least 1");
  return s;
}

Selection select(const std::string& name, const std::string& problem_line, bool all, bool (*keep)(const std::string&)) {
  if (problem_line.empty()) return {select_ops(name, all, keep), std::nullopt};
  const Problem p = Problem::parse(problem_line);
  if (!name.empty() && name != p.op()) throw Error("operator '" + name + "' differs from the problem line's '" + p.op() + "'");
  if (keep && !keep(p.op())) throw Error(p.op() + " does not apply here");
  return {{p.op()}, p};
}

}  // namespace plumbline::apps

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  using namespace plumbline::apps;
  // An installed copy (cmake --install): its kernels, plans and tuning database beside it.
  if (const fs::path data = fs::read_symlink("/proc/self/exe").parent_path() / ".." / "share" / "plumbline"; fs::is_directory(data / "kernels"))
    plumbline::plans::set_data_dir(fs::weakly_canonical(data).string());
  CLI::App app{"plumbline: verify GPU neural-network kernels against references, with evidence"};
  app.require_subcommand(1);
  Context ctx;
  add_ops_command(app, ctx);
  add_gradcheck_command(app, ctx);
  add_eval_command(app, ctx);
  add_rules_command(app, ctx);
  add_report_command(app, ctx);
#ifdef PLUMBLINE_WITH_OPENCL
  add_devices_command(app, ctx);
  add_check_command(app, ctx);
  add_bench_command(app, ctx);
  add_gate_command(app, ctx);
  add_mutants_command(app, ctx);
  add_tune_command(app, ctx);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const plumbline::Error& e) {
    std::cerr << "plumbline: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "plumbline: internal error: " << e.what() << "\n";
    return 3;
  }
  return ctx.exit_code;
}
