#include "check/kernel_check.hpp"

#include <cstring>
#include <filesystem>

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

Execution KernelChecker::execute(const Problem& p, const std::vector<TensorF>& inputs) {
  const ocl::LaunchPlan* plan = ocl::find_launch_plan(p.op());
  if (!plan) throw Error("operator '" + p.op() + "' has no OpenCL kernel");
  const Signature sig = signature_of(p);
  if (inputs.size() != sig.inputs.size()) throw Error(p.op() + " takes " + std::to_string(sig.inputs.size()) + " inputs");
  std::vector<ocl::GuardedBuffer> in_b, out_b, scratch_b;
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    if (inputs[i].shape != sig.inputs[i].shape)
      throw Error(p.line() + ": input '" + sig.inputs[i].name + "' must have shape " + sig.inputs[i].shape.str());
    in_b.push_back(rt_.buffer(sig.inputs[i].name, sig.inputs[i].shape.numel()));
    in_b.back().upload(inputs[i].data);
  }
  for (const auto& decl : sig.outputs) {
    out_b.push_back(rt_.buffer(decl.name, decl.shape.numel()));
    out_b.back().poison();
  }
  // Scratch starts poisoned too: a step that reads scratch another step never wrote sees NaN.
  if (plan->scratch)
    for (int64_t size : plan->scratch(p)) {
      scratch_b.push_back(rt_.buffer("scratch" + std::to_string(scratch_b.size()), size));
      scratch_b.back().poison();
    }
  std::vector<ocl::GuardedBuffer*> in_p, out_p, scratch_p;
  for (auto& b : in_b) in_p.push_back(&b);
  for (auto& b : out_b) out_p.push_back(&b);
  for (auto& b : scratch_b) scratch_p.push_back(&b);
  Execution ex;
  ex.seconds = ocl::launch(rt_, p, *plan, program_for(*plan), user_ ? user_->entries : std::vector<std::string>{}, in_p,
                           out_p, scratch_p);
  // Memory first: a write out of bounds or into an input makes every number suspect.
  auto note = [&](const std::string& verdict, const std::string& problem) {
    if (ex.problem.empty()) ex.verdict = verdict, ex.problem = problem;
  };
  for (auto* b : {&in_b, &scratch_b})
    for (auto& buf : *b)
      for (const auto& problem : buf.inspect(false)) note("out-of-bounds", problem);
  for (size_t i = 0; i < in_b.size(); ++i) {
    const std::vector<float> now = in_b[i].download();
    if (std::memcmp(now.data(), inputs[i].data.data(), now.size() * 4) != 0)
      note("input-modified", "the kernel wrote into input '" + in_b[i].name() + "'");
  }
  for (size_t i = 0; i < out_b.size(); ++i) {
    for (const auto& problem : out_b[i].inspect(true))
      note(problem.find("unwritten") != std::string::npos ? "unwritten" : "out-of-bounds", problem);
    ex.outputs.emplace_back(sig.outputs[i].shape);
    ex.outputs.back().data = out_b[i].download();
  }
  return ex;
}

CaseResult KernelChecker::run(const Problem& p, Values values, uint64_t seed) {
  CaseResult r{p, rt_.device().selector, values, seed};
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
  const Execution ex = execute(p, in_f);
  r.seconds = ex.seconds;
  if (!ex.problem.empty()) {
    r.verdict = ex.verdict;
    r.message = ex.problem;
    return r;
  }
  r.passed = true;
  r.verdict = "pass";
  for (size_t i = 0; i < ex.outputs.size(); ++i) {
    const Comparison c = compare(sig.outputs[i].name, ex.outputs[i], ref[i], models[i]);
    r.worst_ratio = std::max(r.worst_ratio, c.worst_ratio);
    r.max_error = std::max(r.max_error, c.max_error);
    if (!c.passed && r.passed) {
      r.passed = false;
      r.verdict = c.untrustworthy ? "untrustworthy" : c.nonfinite_mismatches ? "non-finite" : "wrong";
      r.message = c.message + " (" + std::to_string(c.mismatches) + " of " + std::to_string(c.elements) + " elements off)";
    }
  }
  return r;
}

Values values_for_case(int i) {
  static const Values cycle[] = {Values::Integers, Values::Uniform, Values::Normal, Values::Edge};
  return cycle[i % 4];
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
