#include "check/kernel_check.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check/error_models.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

namespace plumbline {

KernelChecker::KernelChecker(ocl::Runtime& runtime, std::optional<UserKernel> user) : rt_(runtime), user_(std::move(user)) {}

const cl::Program& KernelChecker::program_for(const ocl::LaunchPlan& plan) {
  const std::string key = user_ ? user_->path : plan.file;
  auto it = programs_.find(key);
  if (it != programs_.end()) return it->second;
  cl::Program program;
  if (user_) {
    const std::string path = std::filesystem::absolute(user_->path).string();
    program = rt_.build_file(path).program;
  } else {
    program = rt_.build_file(plan.file).program;
  }
  return programs_.emplace(key, program).first->second;
}

CaseResult KernelChecker::run(const Problem& p, Values values, uint64_t seed) {
  CaseResult r{p, rt_.device().selector, values, seed};
  const ocl::LaunchPlan* plan = ocl::find_launch_plan(p.op());
  if (!plan) throw Error("operator '" + p.op() + "' has no OpenCL kernel yet");
  const Signature sig = signature_of(p);

  Rng rng(seed);
  std::vector<TensorF> in_f;
  std::vector<TensorD> in_d;
  for (const auto& decl : sig.inputs) {
    in_f.push_back(make_input(decl, values, rng));
    in_d.push_back(in_f.back().convert<double>());
  }
  const std::vector<TensorD> ref = run_reference(p, in_d);
  const std::vector<ErrorModel> models = error_models(p, in_d, ref, values == Values::Integers);

  std::vector<ocl::GuardedBuffer> in_b, out_b;
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    in_b.push_back(rt_.buffer(sig.inputs[i].name, sig.inputs[i].shape.numel()));
    in_b.back().upload(in_f[i].data);
  }
  for (const auto& decl : sig.outputs) {
    out_b.push_back(rt_.buffer(decl.name, decl.shape.numel()));
    out_b.back().poison();
  }
  // Scratch starts poisoned too: a step that reads scratch another step never wrote sees NaN.
  std::vector<ocl::GuardedBuffer> scratch_b;
  if (plan->scratch)
    for (int64_t size : plan->scratch(p)) {
      scratch_b.push_back(rt_.buffer("scratch" + std::to_string(scratch_b.size()), size));
      scratch_b.back().poison();
    }
  std::vector<ocl::GuardedBuffer*> in_p, out_p, scratch_p;
  for (auto& b : in_b) in_p.push_back(&b);
  for (auto& b : out_b) out_p.push_back(&b);
  for (auto& b : scratch_b) scratch_p.push_back(&b);
  r.seconds = ocl::launch(rt_, p, *plan, program_for(*plan), user_ ? user_->entries : std::vector<std::string>{}, in_p,
                          out_p, scratch_p);

  auto fail = [&](const std::string& verdict, const std::string& message) {
    r.passed = false;
    r.verdict = verdict;
    r.message = message;
    return r;
  };
  // Memory first: a write out of bounds or into an input makes every number suspect.
  for (auto* b : {&in_b, &scratch_b})
    for (auto& buf : *b)
      for (const auto& problem : buf.inspect(false)) return fail("out-of-bounds", problem);
  for (size_t i = 0; i < in_b.size(); ++i) {
    const std::vector<float> now = in_b[i].download();
    if (std::memcmp(now.data(), in_f[i].data.data(), now.size() * 4) != 0)
      return fail("input-modified", "the kernel wrote into input '" + in_b[i].name() + "'");
  }
  for (auto& b : out_b) {
    const auto problems = b.inspect(true);
    if (!problems.empty()) return fail(problems[0].find("unwritten") != std::string::npos ? "unwritten" : "out-of-bounds", problems[0]);
  }
  r.passed = true;
  r.verdict = "pass";
  for (size_t i = 0; i < out_b.size(); ++i) {
    TensorF got(sig.outputs[i].shape);
    got.data = out_b[i].download();
    const Comparison c = compare(sig.outputs[i].name, got, ref[i], models[i]);
    r.worst_ratio = std::max(r.worst_ratio, c.worst_ratio);
    if (!c.passed && r.passed) {
      r.passed = false;
      r.verdict = c.untrustworthy ? "untrustworthy" : c.nonfinite_mismatches ? "non-finite" : "wrong";
      r.message = c.message + " (" + std::to_string(c.mismatches) + " of " + std::to_string(c.elements) + " elements off)";
    }
  }
  return r;
}

std::string check_repro(const CaseResult& r, const std::optional<UserKernel>& user) {
  std::string cmd = "plumbline check " + r.problem.op() + " --problem '" + r.problem.line() + "' --values " +
                    to_string(r.values) + " --seed " + std::to_string(r.seed) + " --device " + r.device;
  if (user) {
    std::string entries;
    for (const auto& e : user->entries) entries += (entries.empty() ? "" : ",") + e;
    cmd += " --kernel-file " + user->path + " --entry " + entries;
  }
  return cmd;
}

}  // namespace plumbline
