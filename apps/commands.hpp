#pragma once
// Each subcommand registers itself on the CLI11 app; the callback stores the exit status:
// 0 when everything checked passed, 1 when a check failed, 2 for bad input (see main.cpp).
#include <CLI/CLI.hpp>
#include <optional>

#include "core/problem.hpp"

namespace plumbline::apps {

struct Context {
  int exit_code = 0;
};

void add_ops_command(CLI::App& app, Context& ctx);
void add_gradcheck_command(CLI::App& app, Context& ctx);
void add_eval_command(CLI::App& app, Context& ctx);
void add_devices_command(CLI::App& app, Context& ctx);
void add_check_command(CLI::App& app, Context& ctx);
void add_rules_command(CLI::App& app, Context& ctx);
void add_bench_command(CLI::App& app, Context& ctx);
void add_gate_command(CLI::App& app, Context& ctx);
void add_mutants_command(CLI::App& app, Context& ctx);
void add_tune_command(CLI::App& app, Context& ctx);

// A shard of a command's work (CI matrices): --shard I/N (0 <= I < N), else GTEST_SHARD_INDEX and
// GTEST_TOTAL_SHARDS, else the whole. Work item j (a case, a rule, a problem) belongs to shard j % N,
// so N shards cover it exactly once, whatever N is.
struct Shard {
  int index = 0, count = 1;
  bool mine(size_t item) const { return count <= 1 || static_cast<int>(item % static_cast<size_t>(count)) == index; }
  bool whole() const { return count <= 1; }
  std::string flag() const { return whole() ? "" : " --shard " + std::to_string(index) + "/" + std::to_string(count); }
};
Shard parse_shard(const std::string& text);  // Error naming a malformed I/N
inline void add_shard_option(CLI::App* cmd, std::string& text) {
  cmd->add_option("--shard", text, "I/N: only shard I (0-based) of N of the work, for a CI matrix (default: GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS)");
}
void add_report_command(CLI::App& app, Context& ctx);

// Operators named on the command line: one name, or every registered operator with `all`.
// `keep` filters (e.g. backward operators only for gradcheck).
std::vector<std::string> select_ops(const std::string& name, bool all, bool (*keep)(const std::string&));

// What a checking command runs: the operators, and the one problem when --problem gave a line (whose
// operator must agree with a named one).
struct Selection {
  std::vector<std::string> ops;
  std::optional<Problem> problem;
};
Selection select(const std::string& name, const std::string& problem_line, bool all, bool (*keep)(const std::string&));

}  // namespace plumbline::apps
