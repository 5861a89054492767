#include "egraph/runner.hpp"

#include <chrono>

#include "egraph/pattern.hpp"

namespace plumbline::egraph {

std::string RunnerReport::summary() const {
  std::string s = stop_reason + " after " + std::to_string(iterations) + " iterations, " + std::to_string(nodes) + " e-nodes in " +
                  std::to_string(classes) + " classes, " + std::to_string(seconds * 1e3) + " ms";
  return s;
}

RunnerReport run_rules(EGraph& eg, const std::vector<Rule>& rules, const RunnerOptions& opt) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  struct Scheduled {
    const Rule* rule;
    CompiledPattern pattern;
    int banned_until = 0, times_banned = 0;
  };
  std::vector<Scheduled> active;
  for (const Rule& r : rules) {
    if (r.numerics == Numerics::Approx && !opt.approx_rules) continue;
    bool assumes = false;
    for (const auto& v : r.vars) assumes = assumes || v.assumed();
    if (assumes && !opt.value_assumptions) continue;
    active.push_back({&r, CompiledPattern(r)});
  }
  RunnerReport rep;
  eg.rebuild();
  for (int iter = 0;; ++iter) {
    if (iter >= opt.iteration_limit) {
      rep.stop_reason = "iteration limit";
      break;
    }
    rep.iterations = iter + 1;
    // Read phase: every rule's matches against the same e-graph.
    std::vector<std::pair<Scheduled*, std::vector<Match>>> found;
    bool any_banned = false;
    for (auto& s : active) {
      if (s.banned_until > iter) {
        any_banned = true;
        continue;
      }
      const size_t threshold = opt.match_limit << s.times_banned;
      auto matches = s.pattern.search(eg, threshold + 1);
      if (matches.size() > threshold) {
        s.banned_until = iter + (opt.ban_length << s.times_banned);
        ++s.times_banned;
        ++rep.bans[s.rule->name];
        any_banned = true;
        continue;
      }
      found.emplace_back(&s, std::move(matches));
    }
    // Write phase.
    const size_t nodes_before = eg.num_nodes();
    bool changed = false;
    for (auto& [s, matches] : found)
      for (const Match& m : matches) {
        const Id rhs = instantiate(eg, *s->rule, m);
        if (eg.merge(m.root, rhs, s->rule->name)) {
          changed = true;
          ++rep.applied[s->rule->name];
        }
        if (eg.num_nodes() > opt.node_limit) break;
      }
    eg.rebuild();
    changed = changed || eg.num_nodes() != nodes_before;
    if (eg.num_nodes() > opt.node_limit) {
      rep.stop_reason = "node limit";
      break;
    }
    if (elapsed() > opt.time_limit_s) {
      rep.stop_reason = "time limit";
      break;
    }
    if (!changed) {
      if (!any_banned) {
        rep.stop_reason = "saturated";
        break;
      }
      // Nothing left but banned rules: let them run now (egg does the same).
      for (auto& s : active) s.banned_until = 0;
    }
  }
  rep.nodes = eg.num_nodes();
  rep.classes = eg.num_classes();
  rep.seconds = elapsed();
  return rep;
}

}  // namespace plumbline::egraph
