#pragma once
// Equality saturation: apply every rule to every match, rebuild, repeat, until nothing changes
// (saturated) or a limit stops it (iterations, e-nodes, seconds). egg's backoff scheduler keeps a
// rule that matches explosively from swamping the rest: past its match limit it is banned for a few
// iterations, and both grow each time it is banned again.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/rules.hpp"

namespace plumbline::egraph {

struct RunnerOptions {
  int iteration_limit = 30;
  size_t node_limit = 100000;
  double time_limit_s = 10;
  size_t match_limit = 1000;      // backoff: matches per iteration before a rule is banned
  int ban_length = 5;             // backoff: iterations banned the first time
  bool approx_rules = false;      // apply rules tagged (approx ...): they change the numbers
  bool value_assumptions = true;  // apply rules that (assume ...) their values finite or bounded
};

struct RunnerReport {
  int iterations = 0;
  size_t nodes = 0, classes = 0;
  std::string stop_reason;  // saturated, iteration limit, node limit, time limit
  double seconds = 0;
  std::map<std::string, size_t> applied;  // rule -> merges that changed the e-graph
  std::map<std::string, int> bans;        // rule -> times the backoff scheduler banned it
  std::string summary() const;
};

RunnerReport run_rules(EGraph& eg, const std::vector<Rule>& rules, const RunnerOptions& options = {});

}  // namespace plumbline::egraph
