#pragma once
// Each subcommand registers itself on the CLI11 app; the callback stores the exit status:
// 0 when everything checked passed, 1 when a check failed, 2 for bad input (see main.cpp).
#include <CLI/CLI.hpp>

namespace plumbline::apps {

struct Context {
  int exit_code = 0;
};

void add_ops_command(CLI::App& app, Context& ctx);
void add_gradcheck_command(CLI::App& app, Context& ctx);
void add_eval_command(CLI::App& app, Context& ctx);
void add_devices_command(CLI::App& app, Context& ctx);
void add_check_command(CLI::App& app, Context& ctx);

// Operators named on the command line: one name, or every registered operator with `all`.
// `keep` filters (e.g. backward operators only for gradcheck).
std::vector<std::string> select_ops(const std::string& name, bool all, bool (*keep)(const std::string&));

}  // namespace plumbline::apps
