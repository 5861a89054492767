// Every OpenCL kernel against the reference on every device found (PLUMBLINE_DEVICE narrows it), and
// planted faulty kernels (mutants/catalogue/, given as a user's --kernel-file) that must be caught.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <unistd.h>

#include "bench/batch.hpp"
#include "proptests/test_support.hpp"
#include "bench/paired.hpp"
#include "check/error_models.hpp"
#include "check/generators.hpp"
#include "check/gradcheck.hpp"
#include "check/kernel_check.hpp"
#include "check/shrink.hpp"
#include "check/launch_shape.hpp"
#include "check/sampling.hpp"
#include "check/stress.hpp"
#include "opencl/type_names.hpp"
#include "core/registry.hpp"
#include "mutants/systematic.hpp"
#include "plans/library.hpp"
#include "plans/tuning.hpp"
#include "reference/reference.hpp"

using namespace plumbline;

namespace {

constexpr double kBudget = 4e6;

struct Device {
  std::unique_ptr<ocl::Runtime> runtime;
  std::unique_ptr<KernelChecker> ours;
};

std::vector<Device>& devices() {
  static std::vector<Device> d = [] {
    std::vector<Device> v;
    for (const auto& info : ocl::select_devices(ocl::default_selector())) {
      Device dev{std::make_unique<ocl::Runtime>(info, ocl::Builds::ForChecks), nullptr};
      dev.ours = std::make_unique<KernelChecker>(*dev.runtime);
      v.push_back(std::move(dev));
    }
    return v;
  }();
  return d;
}

rc::Gen<Values> values_gen() { return rc::gen::element(Values::Integers, Values::Uniform, Values::Normal, Values::Edge); }

}  // namespace

class Kernel : public ::testing::TestWithParam<std::string> {};

// Every variant of every operator: a problem drawn with the variant's tile sizes, steered into its
// condition.
TEST_P(Kernel, AgreesWithTheReference) {
  const std::string op = GetParam();
  for (auto& dev : devices()) {
    const auto& variants = dev.ours->variants(op);
    const bool ok = rc::check(op + " on " + dev.runtime->device().selector, [&] {
      const size_t vi = *rc::gen::inRange<size_t>(0, variants.size());
      const plans::Variant& v = variants[vi];
      const std::optional<Problem> p = plans::steer(v, *problem_gen(op, GenContext(kBudget, plans::tile_sizes(v))));
      RC_PRE(p.has_value());
      const Values values = *values_gen();
      const auto seed = *rc::gen::inRange<uint64_t>(0, 1u << 30);
      const CaseResult r = dev.ours->run(*p, values, seed, &v);
      RC_TAG(to_string(values));
      RC_LOG() << r.variant << " " << r.verdict << ": " << r.message << "\nrepro: " << check_repro(r, {}) << "\n";
      RC_ASSERT(r.passed);
    });
    EXPECT_TRUE(ok);
  }
}

INSTANTIATE_TEST_SUITE_P(All, Kernel, ::testing::ValuesIn(Registry::get().names()), [](const auto& info) { return info.param; });

// Every kernel backward directly against finite differences of the reference forward (not only against
// the reference backward): a kernel and a reference that shared a wrong derivative would fail here.
// The kernel's own float rounding is allowed for by its error model's bound (as in the comparison with
// the reference), on top of the finite-difference tolerance.
class KernelBackward : public ::testing::TestWithParam<std::string> {};

// Gradient-check options whose backward is `kernels` (float32; variant v, or the one that serves the
// problem), with its error model's bound.
GradcheckOptions kernel_as_backward(KernelChecker& kernels, const plans::Variant* v = nullptr) {
  GradcheckOptions o;
  o.mode = GradcheckOptions::Mode::Fast;
  o.backward_error = [](const Problem& p, const std::vector<TensorD>& in) {
    std::vector<TensorD> in_f;  // the values the kernel sees
    for (const auto& t : in) in_f.push_back(t.convert<float>().convert<double>());
    const std::vector<TensorD> ref = run_reference(p, in_f);
    const std::vector<ErrorModel> models = error_models(p, in_f, ref, false);
    std::vector<TensorD> bounds;
    for (size_t i = 0; i < ref.size(); ++i) bounds.push_back(error_bounds(ref[i], models[i]));
    return bounds;
  };
  o.backward = [&kernels, v](const Problem& p, const std::vector<TensorD>& in) {
    std::vector<TensorF> in_f;
    for (const auto& t : in) in_f.push_back(t.convert<float>());
    const Execution ex = kernels.execute(p, in_f, v);
    if (!ex.problem.empty()) throw Error(ex.problem);
    std::vector<TensorD> out;
    for (const auto& t : ex.outputs) out.push_back(t.convert<double>());
    return out;
  };
  return o;
}

TEST_P(KernelBackward, AgreesWithFiniteDifferences) {
  const std::string op = GetParam();
  for (auto& dev : devices()) {
    const auto& variants = dev.ours->variants(op);
    const int cases = 25 * static_cast<int>(variants.size());
    const CasePlan plan(variants, op, cases, 7, 2e4);
    for (int i = 0; i < cases; ++i) {
      const KernelCase c = plan.at(i);
      // Finite differences need float32 storage: a step below f16's or bf16's spacing is rounded away
      // from the inputs. (Those formats' backwards are checked against the reference backward.)
      if (dtype_of(c.problem.value()) != DType::F32) continue;
      const GradcheckOptions o = kernel_as_backward(*dev.ours, c.variant);
      if (gradcheck(c.problem.value(), 50 + i, o).passed) continue;
      const Problem small =
          shrink_failure(c.problem, [&](const Problem& q) { return plans::applies(*c.variant, q) && !gradcheck(q, 50 + i, o).passed; });
      ADD_FAILURE() << op << "/" << c.variant->name << " on " << dev.runtime->device().selector << ": " << gradcheck(small, 50 + i, o).summary()
                    << "\n  problem: " << small.line() << " (seed " << 50 + i << ")";
      break;
    }
  }
}

std::vector<std::string> backward_ops() {
  std::vector<std::string> v;
  for (const auto& s : Registry::get().all())
    if (!s.forward.empty()) v.push_back(s.name);
  return v;
}

INSTANTIATE_TEST_SUITE_P(All, KernelBackward, ::testing::ValuesIn(backward_ops()), [](const auto& info) { return info.param; });

TEST(Kernels, EveryOperatorHasKernelAndErrorModel) {
  for (const auto& op : Registry::get().names()) {
    EXPECT_FALSE(plans::our_variants(op).empty()) << op << " has no OpenCL kernel";
    EXPECT_NO_THROW(plans::find_variant(plans::our_variants(op), plans::kAbiVariant, op)) << op << " has no default ABI variant";
    EXPECT_TRUE(has_error_model(op)) << op << " has no error model";
  }
}

TEST(Kernels, AbiDocumentsEveryOperatorsEntries) {
  std::ifstream f(std::string(PLUMBLINE_SOURCE_DIR) + "/docs/kernel-abi.md");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  ASSERT_FALSE(doc.empty());
  for (const auto& op : Registry::get().names()) {
    const size_t row = doc.find("| `" + op + "` |");
    ASSERT_NE(row, std::string::npos) << op << " has no row in docs/kernel-abi.md";
    const std::string line = doc.substr(row, doc.find('\n', row) - row);
    for (const auto& step : plans::find_variant(plans::our_variants(op), plans::kAbiVariant, op).steps)
      EXPECT_NE(line.find("`" + step.entry + "`"), std::string::npos) << op << ": entry " << step.entry << " not documented";
  }
}

// ---- the tuning database ------------------------------------------------------------------------------

TEST(TuningDatabase, AnOffEntryPassesOverItsVariantOnItsDeviceOnly) {
  // layer_norm's `rows` serves rows of at most 1024 with m >= 2048; an `off` entry for this device
  // hands such a problem to the next variant in line (the seed), and check still covers `rows`. The
  // same entry for another device changes nothing here.
  auto& dev = devices().at(0);
  const auto& info = dev.runtime->device();
  const Problem p = Problem::parse("layer_norm:m=4096,n=512");
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("plumbline_off_" + std::to_string(::getpid()));
  auto select_with = [&](const std::string& device_name) {
    fs::create_directories(dir);
    std::ofstream(dir / "t.tuning") << device_name << " | " << info.driver_version << " | layer_norm | rows | all | off | a test\n";
    KernelChecker kc(*dev.runtime, plans::KernelSource{.tuning_dir = dir.string()});
    std::set<std::string> names;
    for (const auto& v : kc.variants("layer_norm")) names.insert(v.name);
    EXPECT_TRUE(names.count("rows")) << "check covers a variant that is off";
    const std::string chosen = kc.select(p).name;
    // Asked for by name, it runs all the same.
    KernelChecker named(*dev.runtime, plans::KernelSource{.variant = "rows", .tuning_dir = dir.string()});
    EXPECT_EQ(named.select(p).name, "rows");
    fs::remove_all(dir);
    return chosen;
  };
  EXPECT_EQ(select_with(info.name), "seed");
  EXPECT_EQ(select_with("another device"), "rows");
}

TEST(TuningDatabase, AnEntryWhoseDefinesDoNotServeAProblemGivesWayToThePlansDefines) {
  // The H100's and H200's entry for layer_norm_bwd's `rows` (class all) holds rows of PER * NORM_WG =
  // 1024 at most; the plan's defines hold 4096. A row of 4096 then runs `rows` as the plan defines it,
  // in check and in bench alike; a row of 512 takes the entry.
  auto& dev = devices().at(0);
  const auto& info = dev.runtime->device();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("plumbline_narrow_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "t.tuning") << info.name << " | " << info.driver_version
                                  << " | layer_norm_bwd | rows | all | NORM_WG=128 PER=8 ROWS=16 | a test\n";
  KernelChecker kc(*dev.runtime, plans::KernelSource{.tuning_dir = dir.string()});
  const Problem wide = Problem::parse("layer_norm_bwd:m=24,n=4096"), narrow = Problem::parse("layer_norm_bwd:m=24,n=512");
  const plans::Variant& for_wide = kc.select(wide);
  EXPECT_EQ(for_wide.name, "rows");
  ASSERT_TRUE(for_wide.define("PER"));
  EXPECT_EQ(*for_wide.define("PER"), "16");
  EXPECT_EQ(kc.select(narrow).name, "rows@all");
  for (const Problem& p : {wide, narrow}) {
    const CaseResult r = kc.run(p, Values::Normal, 3);
    EXPECT_TRUE(r.passed) << p.line() << ": " << r.message;
    EXPECT_TRUE(bench::check_once(kc, p, 1e9, 3).passed) << p.line();
  }
  fs::remove_all(dir);
}

TEST(TuningDatabase, ADeviceWithoutAnEntryTakesOneOfItsArchitecture) {
  // The local device, named as if its driver gave it an architecture: a device of that architecture
  // lends it its entry (an instance `rows@all` with the lender's defines, said to be borrowed); one of
  // another architecture does not, and the device's own entry (here `off`) comes before any lender's.
  auto& dev = devices().at(0);
  ocl::DeviceInfo info = dev.runtime->device();
  info.architecture = "test sm_1";
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("plumbline_arch_" + std::to_string(::getpid()));
  auto variants_with = [&](const std::string& lender_arch, bool own_off) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "lender.tuning") << "a lender | another driver | layer_norm | rows | all | NORM_WG=128 PER=8 ROWS=2 | a test\n";
    if (own_off) std::ofstream(dir / "own.tuning") << info.name << " | " << info.driver_version << " | layer_norm | rows | all | off | a test\n";
    plans::merge_architecture(dir.string(), "a lender", lender_arch);
    return kernel_variants(plans::KernelSource{.tuning_dir = dir.string()}, "layer_norm", info);
  };
  const KernelVariants same = variants_with("test sm_1", false);
  ASSERT_TRUE(same.tuned.count("rows@all"));
  EXPECT_EQ(same.borrowed.at("rows@all"), "a lender");
  const plans::Variant& lent = same.all[same.tuned.at("rows@all")];
  ASSERT_TRUE(lent.define("ROWS") && lent.define("NORM_WG"));
  EXPECT_EQ(*lent.define("ROWS"), "2");
  EXPECT_EQ(*lent.define("NORM_WG"), "128");
  const KernelVariants other = variants_with("test sm_2", false);
  EXPECT_FALSE(other.tuned.count("rows@all"));
  EXPECT_TRUE(other.borrowed.empty());
  const KernelVariants own = variants_with("test sm_1", true);
  EXPECT_FALSE(own.tuned.count("rows@all"));
  EXPECT_TRUE(own.off.count("rows@all"));
  EXPECT_TRUE(own.borrowed.empty());
  // A device whose driver names no architecture borrows nothing, whatever the file says.
  info.architecture.clear();
  EXPECT_FALSE(variants_with("test sm_1", false).tuned.count("rows@all"));
  fs::remove_all(dir);
}

TEST(TuningDatabase, FindTuningPrefersTheDeviceThenTheDriverThenTheArchitecture) {
  auto entry = [](std::string device, std::string driver, std::string arch, std::string evidence) {
    plans::TuningEntry e;
    e.device = std::move(device), e.driver = std::move(driver), e.architecture = std::move(arch), e.evidence = std::move(evidence);
    e.op = "softmax", e.variant = "quads", e.shape_class = "long";
    return e;
  };
  const std::vector<plans::TuningEntry> db = {entry("H100", "old", "sm_90", "h100 old"), entry("H100", "new", "sm_90", "h100 new"),
                                              entry("A100", "new", "sm_80", "a100"), entry("H200", "old", "sm_90", "h200 old")};
  auto found = [&](const std::string& device, const std::string& driver, const std::string& arch) {
    const plans::TuningEntry* e = plans::find_tuning(db, device, driver, arch, "softmax", "quads", "long");
    return e ? e->evidence : std::string("none");
  };
  EXPECT_EQ(found("H200", "new", "sm_90"), "h200 old");   // its own, of another driver, before a lender's of its driver
  EXPECT_EQ(found("GH200", "new", "sm_90"), "h100 new");  // a lender of its driver first
  EXPECT_EQ(found("GH200", "old", "sm_90"), "h100 old");
  EXPECT_EQ(found("GH200", "newest", "sm_90"), "h100 old");  // else the first lender in the database's order
  EXPECT_EQ(found("GH200", "new", ""), "none");
  EXPECT_EQ(found("B200", "new", "sm_100"), "none");
  EXPECT_EQ(plans::find_tuning(db, "H100", "new", "sm_90", "softmax", "quads", "short"), nullptr);
}

TEST(TuningDatabase, TheArchitecturesFileIsCheckedLineByLine) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("plumbline_archfile_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto error_of = [&](const std::string& text) {
    std::ofstream(dir / "architectures") << text;
    try {
      plans::read_tuning(dir.string());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("# a comment\nNVIDIA H200\n").find("architectures:2: a line of `architectures` is 'device | architecture'"), std::string::npos);
  EXPECT_NE(error_of("A | sm_90\nA | sm_80\n").find("architectures:2: device 'A' is named twice"), std::string::npos);
  EXPECT_EQ(error_of("A | sm_90\n\n# B | x\nB | sm_80\n"), "no error");
  // merge_architecture adds a device, replaces its line, and keeps the others.
  plans::merge_architecture(dir.string(), "C", "sm_100");
  plans::merge_architecture(dir.string(), "A", "sm_89");
  EXPECT_EQ(plans::read_architectures(dir.string()), (std::map<std::string, std::string>{{"A", "sm_89"}, {"B", "sm_80"}, {"C", "sm_100"}}));
  fs::remove_all(dir);
}

TEST(TuningDatabase, AVariantShapedForAnotherTypeOfDeviceIsPassedOver) {
  // conv2d's `direct` is shaped for CPUs (`devices cpu`); the same plan with the line naming another
  // type hands the problem to the next variant in line (depthwise does not serve it: gemm, a 1x1),
  // while check still covers `direct` and --variant still reaches it.
  auto& dev = devices().at(0);
  const std::string type = dev.runtime->device().type, other = type == "cpu" ? "gpu" : "cpu";
  const Problem p = Problem::parse("conv2d:n=2,c=16,h=9,w=9,k=16,r=1,s=1");
  namespace fs = std::filesystem;
  std::ifstream in(std::string(PLUMBLINE_SOURCE_DIR) + "/opencl/kernels/conv.plan");
  std::stringstream plan;
  plan << in.rdbuf();
  auto select_with = [&](const std::string& devices_line) {
    std::string text = plan.str();
    const size_t at = text.find("  devices cpu ");
    EXPECT_NE(at, std::string::npos) << "conv.plan's direct variant has a devices line";
    text.replace(at, text.find('\n', at) - at, "  devices " + devices_line);
    const fs::path dir = fs::temp_directory_path() / ("plumbline_devices_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "conv.plan") << text;
    for (const char* blocks : {"gemm_cores.blocks", "conv_winograd.blocks"})
      fs::copy_file(std::string(PLUMBLINE_SOURCE_DIR) + "/opencl/kernels/" + blocks, dir / blocks, fs::copy_options::overwrite_existing);
    KernelChecker kc(*dev.runtime, plans::KernelSource{.plan_file = (dir / "conv.plan").string()});
    std::set<std::string> names;
    for (const auto& v : kc.variants("conv2d")) names.insert(v.name);
    EXPECT_TRUE(names.count("direct")) << "check covers a variant shaped for another device";
    const std::string chosen = kc.select(p).name;
    KernelChecker named(*dev.runtime, plans::KernelSource{.plan_file = (dir / "conv.plan").string(), .variant = "direct"});
    EXPECT_EQ(named.select(p).name, "direct");
    fs::remove_all(dir);
    return chosen;
  };
  EXPECT_EQ(select_with(type), "direct");
  EXPECT_EQ(select_with(other), "gemm");
  EXPECT_EQ(select_with(other + " " + type), "direct");
}

TEST(TuningDatabase, AVariantNeedingAFeatureTheDeviceLacksIsNotRun) {
  // gemm.plan's `mma` needs nvidia_sm80 (inline PTX that builds on NVIDIA only): on a device without
  // it, check does not cover it (its program would not build), bf16 problems go to xgemm, and asking
  // for it by name is an error that names the feature; on a device with it, it serves them.
  auto& dev = devices().at(0);
  const auto& features = dev.runtime->device().features;
  const bool has = std::find(features.begin(), features.end(), "nvidia_sm80") != features.end();
  const bool hopper = std::find(features.begin(), features.end(), "nvidia_sm90a") != features.end();  // wgmma comes first
  const Problem p = Problem::parse("matmul:m=64,k=32,n=64,dtype=bf16");
  KernelChecker kc(*dev.runtime);
  std::set<std::string> names;
  for (const auto& v : kc.variants("matmul")) names.insert(v.name);
  EXPECT_EQ(names.count("mma"), has ? 1u : 0u);
  EXPECT_EQ(kc.kernels("matmul").unavailable.count("mma"), has ? 0u : 1u);
  EXPECT_EQ(kc.select(p).name, hopper ? "wgmma" : has ? "mma" : "xgemm");
  EXPECT_EQ(kc.kernels("matmul").unavailable.count("wgmma"), hopper ? 0u : 1u);
  KernelChecker named(*dev.runtime, plans::KernelSource{.variant = "mma"});
  if (has) {
    EXPECT_EQ(named.select(p).name.substr(0, 3), "mma");
  } else {
    try {
      named.select(p);
      ADD_FAILURE() << "--variant mma ran on a device without nvidia_sm80";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("matmul/mma needs nvidia_sm80"), std::string::npos) << e.what();
    }
  }
}

// An entry is found by (op, variant, class): a plan edit that renames a variant or changes its classes
// leaves the entry unread and the device on the defaults, with nothing said (adding `rows`/`vocab` to
// softmax's `resident` would have dropped PoCL's `off` entries for class `all`). Each entry must name a
// class of today's plans.
TEST(TuningDatabase, EveryEntryNamesAClassOfTodaysPlans) {
  const auto db = plans::read_tuning(std::string(PLUMBLINE_SOURCE_DIR) + "/opencl/tuning");
  ASSERT_FALSE(db.empty());
  const auto ops = Registry::get().names();
  for (const auto& e : db) {
    const std::string where = e.where.str() + ": " + e.op + "/" + e.variant + " class " + e.shape_class;
    if (std::find(ops.begin(), ops.end(), e.op) == ops.end()) {
      ADD_FAILURE() << where << ": no such operator";
      continue;
    }
    const auto& variants = plans::our_variants(e.op);
    const auto v = std::find_if(variants.begin(), variants.end(), [&](const plans::Variant& x) { return x.name == e.variant; });
    if (v == variants.end()) {
      ADD_FAILURE() << where << ": the operator's plan has no such variant";
      continue;
    }
    std::set<std::string> classes;
    for (const auto& c : v->classes) classes.insert(c.name);
    if (classes.empty()) classes.insert("all");
    EXPECT_TRUE(classes.count(e.shape_class)) << where << ": the variant's classes are " << testing::PrintToString(classes);
  }
}

// ---- planted faulty kernels ------------------------------------------------------------------------

namespace {

struct Caught {
  CaseResult shrunk;
  int cases_until_caught = 0;
};

// Runs random cases of `op` with the user kernel until one fails (at most `cases`), then shrinks it.
std::optional<Caught> catch_bug(const std::string& op, const std::string& file, std::vector<std::string> entries, int cases = 200,
                                std::optional<Values> only = std::nullopt) {
  auto& dev = devices().at(0);
  KernelChecker user(*dev.runtime,
                     plans::KernelSource{.kernel_file = std::string(PLUMBLINE_PLANTED_DIR) + "/" + file, .entries = std::move(entries)});
  const CasePlan plan(user.variants(op), op, cases, 1);
  for (int i = 0; i < cases; ++i) {
    KernelCase c = plan.at(i);
    if (only) c.values = *only;
    const CaseResult r = user.run(c.problem.value(), c.values, c.seed, c.variant);
    if (r.passed) continue;
    return Caught{shrink_case(user, c, r), i + 1};
  }
  return std::nullopt;
}

}  // namespace

// A GPU's stress problems, read off the plans for an H200's figures (no GPU needed): each one fills the
// device four waves deep with a loop of 32 tiles where 64 MiB allow it, is checked on a sample of its
// outputs that the host checks in seconds (conv2d's igemm once got 17 planes of 8e10 FLOPs each, which
// kept an H100's check busy for minutes), and a variant that falls short says so in a note.
TEST(StressProblems, FillAnH200WithinTheirBytesAndSayWhereTheyFallShort) {
  ocl::DeviceInfo h200;
  h200.selector = "nvidia:0", h200.is_gpu = true, h200.type = "gpu", h200.compute_units = 132;
  h200.global_mem_bytes = 150ull << 30, h200.max_alloc_bytes = 35ull << 30, h200.max_work_group_size = 1024;
  h200.features = {"nvidia_sm80", "nvidia_sm90a", "local_mem_48k"};
  for (const std::string op : {"matmul", "layer_norm", "sum", "conv2d", "conv2d_bwd_data", "conv2d_bwd_weight", "max_pool2d", "transpose"}) {
    std::vector<std::string> notes;
    const auto& variants = plans::our_variants(op);
    const std::vector<KernelCase> cases = stress_cases(variants, op, h200, 7, &notes);
    EXPECT_FALSE(cases.empty()) << op;
    for (const KernelCase& c : cases) {
      const Problem p = c.problem.value();
      EXPECT_TRUE(c.sample_outputs) << p.line();
      EXPECT_TRUE(plans::applies(*c.variant, p)) << c.variant->id() << " " << p.line();
      EXPECT_LE(signature_of(p).bytes(), 64.0 * 1024 * 1024) << p.line();
      if (has_slicer(op)) {
        const SampledCost cost = sampled_check_cost(p);
        EXPECT_LE(cost.flops, 4 * kSampleBudget) << p.line();
        EXPECT_LE(cost.largest_slice_flops, kStressSliceFlops) << p.line();
      }
      const bool noted = std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.rfind(c.variant->id() + ":", 0) == 0; });
      if (!noted) {
        EXPECT_GE(waves(*c.variant, p, h200), 4.0) << c.variant->id() << " " << p.line();
      } else {
        const auto n = std::find_if(notes.begin(), notes.end(), [&](const std::string& n) { return n.rfind(c.variant->id() + ":", 0) == 0; });
        EXPECT_NE(n->find(p.line()), std::string::npos) << *n;
      }
    }
  }
  // The GEMM's depth, where a work-group loops over it, runs over 32 of its largest tiles (a split
  // depth's slices are the launch's, not a loop's), and the waves come from one matrix's tiles.
  for (const KernelCase& c : stress_cases(plans::our_variants("matmul"), "matmul", h200, 7)) {
    const std::vector<int64_t> tiles = plans::tile_sizes(*c.variant);
    const Problem p = c.problem.value();
    const std::vector<std::string> loops = loop_attributes(*c.variant, p);
    if (!tiles.empty() && std::find(loops.begin(), loops.end(), "k") != loops.end()) {
      EXPECT_GE(p.i("k"), 32 * tiles.back()) << c.variant->id() << " " << p.line();
    }
    EXPECT_LE(p.i("batch"), 64) << c.variant->id() << " " << p.line();
  }
  // The catalogue's GEMM race (a tile overwritten while slower work-items still read it) showed on an
  // H200 at 2048 x 1024 x 2048 and not at 512^3: its stress problem reaches that size.
  const auto race = plans::read_plan_file(std::string(PLUMBLINE_PLANTED_DIR) + "/matmul_rb_gemm_missing_second_barrier.plan", true);
  const std::vector<KernelCase> raced = stress_cases(race, "matmul", h200, 7);
  ASSERT_EQ(raced.size(), 1u);
  const Problem p = raced[0].problem.value();
  EXPECT_GE(p.i("k"), 1024) << p.line();
  EXPECT_GE(p.i("m") * p.i("n") * std::max<int64_t>(1, p.i("batch")), 2048 * 2048) << p.line();
}

// A program's parameter type names resolve through its typedefs and macros as the build's defines
// select them (opencl/type_names.hpp).
TEST(TypeNames, TheTypedefsTheBuildsDefinesSelect) {
  const std::string source =
      "#ifndef PRECISION\n  #define PRECISION 32\n#endif\n"
      "#if PRECISION == 16\n  typedef half real;\n  typedef half2 real2;\n#elif PRECISION == 32\n  typedef float real;\n  typedef float2 "
      "real2;\n#endif\n"
      "typedef real real_arg;\n"
      "#if defined(WIDE) && VW == 2\n  typedef real2 realV;\n#else\n  typedef real realV;\n#endif\n"
      "#define index_t unsigned int\n"
      "#ifdef GONE\n  typedef double gone;\n#endif\n"
      "typedef struct { float x; } pair;\n";
  const ocl::TypeNames plain(source, "-DDTYPE_F32 -cl-kernel-arg-info");
  EXPECT_EQ(plain.resolve("real_arg"), "float");
  EXPECT_EQ(plain.resolve("realV*"), "float*");
  EXPECT_EQ(plain.resolve("index_t"), "uint");
  EXPECT_EQ(plain.resolve("gone"), "gone");  // under no define
  EXPECT_EQ(plain.resolve("float4*"), "float4*");
  const ocl::TypeNames wide(source, "-DPRECISION=16 -DWIDE -DVW=2");
  EXPECT_EQ(wide.resolve("real_arg"), "half");
  EXPECT_EQ(wide.resolve("realV*"), "half2*");
  ocl::TypeNames declared(source, "");
  declared.declare({{"pair", "float2"}});
  EXPECT_EQ(declared.resolve("pair*"), "float2*");
}

// Batch files compose (bench/batch.hpp): includes, `ops` and `dtype` expand a shape written once.
TEST(BatchFiles, IncludesAndModifiersExpandAShapeWrittenOnce) {
  const std::string dir = test::temp_dir("batch");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  write("inner.batch", "act:n=8,act=relu\nsum:m=2,n=3,dtype=f16  # names its format: kept\n");
  const std::string outer =
      write("outer.batch", "ops conv2d,conv2d_bwd_data\ndtype f32,bf16\nconv2d:n=1,c=2,h=5,w=5,k=3,r=3,s=3\nops\ninclude inner.batch\n");
  std::vector<std::string> lines;
  for (const auto& e : bench::read_batch(outer)) lines.push_back(e.problem.line());
  const std::vector<std::string> want = {Problem::parse("conv2d:n=1,c=2,h=5,w=5,k=3,r=3,s=3").line(),
                                         Problem::parse("conv2d:n=1,c=2,h=5,w=5,k=3,r=3,s=3,dtype=bf16").line(),
                                         Problem::parse("conv2d_bwd_data:n=1,c=2,h=5,w=5,k=3,r=3,s=3").line(),
                                         Problem::parse("conv2d_bwd_data:n=1,c=2,h=5,w=5,k=3,r=3,s=3,dtype=bf16").line(),
                                         Problem::parse("act:n=8,act=relu").line(),
                                         Problem::parse("act:n=8,act=relu,dtype=bf16").line(),
                                         Problem::parse("sum:m=2,n=3,dtype=f16").line()};
  EXPECT_EQ(lines, want);
  auto error_of = [](const std::string& path) {
    try {
      bench::read_batch(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of(write("cycle.batch", "include cycle.batch\n")), "batch file '" + dir + "/cycle.batch' includes itself");
  EXPECT_EQ(error_of(write("bad.batch", "dtype f64\n")), dir + "/bad.batch:1: storage format 'f64': the formats are f32, f16 and bf16");
  EXPECT_EQ(error_of(write("word.batch", "repeat 3\n")),
            dir + "/word.batch:1: 'repeat' is neither a problem line (NAME = LINE, or LINE) nor a batch keyword (include, ops, dtype)");
  // A named problem: the name goes with every problem it expands into, through includes too.
  write("named.batch", "ops conv2d,conv2d_bwd_data\nlayer1.0.conv2 = conv2d:n=1,c=2,h=5,w=5,k=3,r=3,s=3\nops\nact:n=8\n");
  std::vector<std::string> names;
  for (const auto& e : bench::read_batch(write("outer_named.batch", "dtype bf16\ninclude named.batch\n")))
    names.push_back(e.name + " " + e.problem.op());
  EXPECT_EQ(names, (std::vector<std::string>{"layer1.0.conv2 conv2d", "layer1.0.conv2 conv2d_bwd_data", " act"}));
  EXPECT_EQ(error_of(write("badname.batch", "my layer = act:n=8\n")),
            dir + "/badname.batch:1: 'my layer' is no problem's name (letters, digits, _ . -)");
  EXPECT_EQ(error_of(write("noline.batch", "conv1 =\n")), dir + "/noline.batch:1: 'conv1 =' needs one problem line after it");
  std::filesystem::remove_all(dir);
}

// The shipped batches, written with modifiers, hold every problem once.
TEST(BatchFiles, TheShippedOnesHoldEachProblemOnce) {
  size_t total = 0;
  for (const auto& file : bench::real_layer_batches()) {
    std::set<std::string> seen;
    for (const auto& e : bench::read_batch(file)) EXPECT_TRUE(seen.insert(e.problem.line()).second) << file << ": " << e.problem.line() << " twice";
    total += seen.size();
  }
  std::set<std::string> resnet;
  for (const auto& e : bench::read_batch(bench::batch_dir() + "/resnet50_conv.batch")) resnet.insert(e.problem.op());
  EXPECT_EQ(resnet, (std::set<std::string>{"conv2d", "conv2d_bwd_data", "conv2d_bwd_weight"}));
  EXPECT_EQ(bench::read_batch(bench::batch_dir() + "/resnet50_conv.batch").size(), 69u);
  EXPECT_EQ(bench::read_batch(bench::batch_dir() + "/reduced_precision.batch").size(), 34u);
  EXPECT_GT(total, 150u);
}

TEST(PlantedKernel, Conv2dBwdWeightThatWritesNothing) {
  const auto c = catch_bug("conv2d_bwd_weight", "conv2d_bwd_weight_writes_nothing.cl", {"wgrad", "wgrad_bias", "dbias"});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->shrunk.verdict, "unwritten");
  EXPECT_NE(c->shrunk.message.find("buffer 'd_w'"), std::string::npos) << c->shrunk.message;
  EXPECT_NE(c->shrunk.message.find("left unwritten"), std::string::npos) << c->shrunk.message;
  EXPECT_EQ(c->cases_until_caught, 1);
  EXPECT_EQ(c->shrunk.problem.line(), Problem::make("conv2d_bwd_weight").line()) << "shrinks to the smallest problem";
}

TEST(PlantedKernel, Conv2dBwdDataWithA49FloatLocalArray) {
  const auto c = catch_bug("conv2d_bwd_data", "conv2d_bwd_data_local49.cl", {"dgrad49"});
  ASSERT_TRUE(c.has_value()) << "a kernel that drops taps past the 49th was not caught";
  // Wrong numbers, or (with a kernel far past 49 taps) mostly zeros where the reference is not.
  EXPECT_TRUE(c->shrunk.verdict == "wrong" || c->shrunk.verdict == "untrustworthy") << c->shrunk.message;
  EXPECT_GT(c->shrunk.problem.i("r") * c->shrunk.problem.i("s"), 49) << c->shrunk.problem.line();
  std::cout << "caught after " << c->cases_until_caught << " cases; shrunk to " << c->shrunk.problem.line() << "\n  " << c->shrunk.message
            << "\n  repro: " << check_repro(c->shrunk, plans::KernelSource{.kernel_file = "conv2d_bwd_data_local49.cl", .entries = {"dgrad49"}})
            << "\n";
}

TEST(PlantedKernel, GemmBiasActBwdThatZeroesNonFiniteDerivatives) {
  const auto c = catch_bug("gemm_bias_act_bwd", "gemm_bias_act_bwd_zeroes_nonfinite.cl",
                           {"zeroing_grad_pre", "gemm_bias_act_grad_a", "gemm_bias_act_grad_b", "gemm_bias_act_grad_bias"}, 400, Values::Edge);
  ASSERT_TRUE(c.has_value()) << "zeroed non-finite derivatives were not caught";
  EXPECT_EQ(c->shrunk.verdict, "non-finite") << c->shrunk.message;
  std::cout << "caught after " << c->cases_until_caught << " edge-value cases; shrunk to " << c->shrunk.problem.line() << "\n  " << c->shrunk.message
            << "\n";
}

TEST(PlantedKernel, MaxPoolBackwardSpreadLikeAveragePool) {
  const auto c = catch_bug("max_pool2d_bwd", "max_pool2d_bwd_avg_spread.cl", {"spread"});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->shrunk.verdict, "wrong") << c->shrunk.message;
  EXPECT_EQ(c->cases_until_caught, 1);
  std::cout << "shrunk to " << c->shrunk.problem.line() << "\n  " << c->shrunk.message << "\n";
}

TEST(PlantedKernel, GeluBackwardWithTheOtherFormula) {
  // Caught twice over: against the reference backward, and directly against finite differences.
  const auto c = catch_bug("act_bwd", "act_bwd_gelu_mixed.cl", {"mixed_backward"});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->shrunk.problem.s("act"), "gelu_tanh") << c->shrunk.problem.line();
  KernelChecker mixed(*devices().at(0).runtime, plans::KernelSource{.kernel_file = std::string(PLUMBLINE_PLANTED_DIR) + "/act_bwd_gelu_mixed.cl",
                                                                    .entries = {"mixed_backward"}});
  const GradcheckResult r = gradcheck(Problem::parse("act_bwd:n=64,act=gelu_tanh"), 3, kernel_as_backward(mixed));
  EXPECT_FALSE(r.passed) << r.summary();
  EXPECT_TRUE(gradcheck(Problem::parse("act_bwd:n=64,act=gelu_tanh"), 3, kernel_as_backward(*devices().at(0).ours)).passed);
}

TEST(PlantedKernel, GroupNormThatIgnoresChannelsNotDivisibleByGroups) {
  // The seed's group_norm never checks c % g: such a problem is refused before any kernel runs, with
  // the reason; on valid problems the seed is right, and the checks agree.
  try {
    Problem::parse("group_norm:n=1,c=6,h=3,w=3,g=4");
    FAIL() << "c % g != 0 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("channels c=6 not divisible by groups g=4"), std::string::npos);
  }
  EXPECT_FALSE(catch_bug("group_norm", "group_norm_seed.cl", {"seed_group_norm"}, 40, Values::Normal).has_value());
}

// ---- sampled checks of problems too large for the full reference ----------------------------------

TEST(SampledCheck, PlantedGemmAndConvBugsAreCaughtAndOurKernelsPass) {
  struct Planted {
    const char* file;
    std::vector<std::string> entries;
    const char* problem;
  };
  const std::vector<Planted> planted = {
      {"matmul_drops_k_tail.cl", {"matmul_k16"}, "matmul:m=200,k=1000,n=150"},
      {"gemm_bias_act_bwd_db_into_slice0.cl",
       {"gemm_bias_act_grad_pre", "gemm_bias_act_grad_a", "grad_b_slice0", "gemm_bias_act_grad_bias"},
       "gemm_bias_act_bwd:batch=3,m=40,k=50,n=60,act=gelu_tanh,bshared=0"},
      {"conv2d_nchw_read_as_nhwc.cl", {"nhwc", "nhwc_bias"}, "conv2d:n=2,c=16,h=23,w=19,k=24,r=3,s=3,ph=1,pw=1,bias=1"},
      {"conv2d_bwd_weight_groups_ignored.cl",
       {"wgrad_nogroups", "wgrad_nogroups_bias", "conv2d_backward_bias"},
       "conv2d_bwd_weight:n=2,c=16,h=21,w=17,k=24,r=3,s=3,g=4,bias=1"},
      {"conv2d_bwd_data_local49.cl", {"dgrad49"}, "conv2d_bwd_data:n=1,c=4,h=30,w=30,k=8,r=9,s=9,ph=4,pw=4"},
  };
  auto& dev = devices().at(0);
  for (const auto& pl : planted) {
    const Problem p = Problem::parse(pl.problem);
    KernelChecker user(*dev.runtime, plans::KernelSource{.kernel_file = std::string(PLUMBLINE_PLANTED_DIR) + "/" + pl.file, .entries = pl.entries});
    user.set_reference_budget(1e5);  // sample problems that the full reference could still check
    ASSERT_TRUE(user.sampled(p)) << pl.problem;
    const CaseResult bad = user.run(p, Values::Normal, 3);
    EXPECT_FALSE(bad.passed) << pl.file << " passed a sampled check of " << pl.problem << ": " << bad.sampled;
    if (bad.verdict != "unwritten") {  // else caught by the poison, before any element is compared
      EXPECT_NE(bad.sampled, "") << pl.file;
      EXPECT_NE(bad.message.find("sampled unit"), std::string::npos) << pl.file << ": " << bad.message;
    }
    // The full check agrees.
    KernelChecker full(*dev.runtime, plans::KernelSource{.kernel_file = std::string(PLUMBLINE_PLANTED_DIR) + "/" + pl.file, .entries = pl.entries});
    EXPECT_FALSE(full.run(p, Values::Normal, 3).passed) << pl.file;
    // Our kernels, every variant that serves the problem, pass the same sampled check.
    dev.ours->set_reference_budget(1e5);
    for (const auto& v : dev.ours->variants(p.op())) {
      if (!plans::applies(v, p)) continue;
      const CaseResult good = dev.ours->run(p, Values::Normal, 3, &v);
      EXPECT_TRUE(good.passed) << p.op() << "/" << v.name << ": " << good.message;
      EXPECT_NE(good.sampled, "") << v.name;
    }
    dev.ours->set_reference_budget(kReferenceBudget);
  }
}

// ---- the sizes tried follow the plan in use --------------------------------------------------------

TEST(PlanBoundaries, AKernelWrongOnlyAtItsOwnWorkGroupMultipleIsCaught) {
  auto& dev = devices().at(0);
  for (const int wg : {96, 200}) {
    const plans::KernelSource source{.kernel_file = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/row_sum_misses_last_chunk.cl",
                                     .entries = {"row_sum"},
                                     .args = "x, y, m, n, over",
                                     .global = "(over == 0 ? 1 : m) * WG",
                                     .local = "WG",
                                     .defines = {"WG=" + std::to_string(wg)}};
    KernelChecker kc(*dev.runtime, source);
    const CasePlan plan(kc.variants("sum"), "sum", 200, 1);
    std::optional<CaseResult> caught;
    for (int i = 0; i < plan.count() && !caught; ++i) {
      const KernelCase c = plan.at(i);
      const CaseResult r = kc.run(c.problem.value(), c.values, c.seed, c.variant);
      if (!r.passed) caught = shrink_case(kc, c, r);
    }
    ASSERT_TRUE(caught.has_value()) << "WG=" << wg << ": a bug at multiples of the work-group size was not caught";
    EXPECT_EQ(caught->problem.s("over"), "row") << caught->problem.line();
    EXPECT_EQ(caught->problem.i("n") % wg, 0) << "shrunk to a multiple of WG=" << wg << ": " << caught->problem.line();
    std::cout << "WG=" << wg << ": shrunk to " << caught->problem.line() << "\n  repro: " << check_repro(*caught, source) << "\n";
    // The same cases drawn without the plan's sizes (16-, 32- and 64-wide tiles) never reach the bug.
    for (int i = 0; i < 200; ++i) {
      const Problem p = sample_problem("sum", GenContext(kBudget), 1, i, 200).value();
      ASSERT_TRUE(p.s("over") == "all" || p.i("n") % wg != 0) << p.line();
    }
  }
}

// ---- the paired regression verdict on synthetic data (deterministic) --------------------------------

namespace {

// n pairs: the baseline at 1 ms and the candidate at `ratio` ms, both times a shared factor (the
// machine's load, the same for both sides of a pair) and each its own noise.
std::pair<std::vector<double>, std::vector<double>> pairs(int n, double ratio, double shared_spread, double own_spread, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> a, b;
  for (int i = 0; i < n; ++i) {
    const double load = std::exp(shared_spread * normal(rng));
    a.push_back(1e-3 * load * std::exp(own_spread * normal(rng)));
    b.push_back(1e-3 * ratio * load * std::exp(own_spread * normal(rng)));
  }
  return {a, b};
}

}  // namespace

TEST(PairedVerdict, AShiftBeyondTheThresholdIsFlaggedAndNoShiftIsSame) {
  // A machine whose load moves every pair by up to +-40% (the CI's drift) and 2% noise of each side.
  int same = 0, regression = 0, improvement = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const auto [a, b] = pairs(15, 1.0, 0.3, 0.02, seed);
    same += bench::judge_pairs(a, b, 0.05, seed).verdict == "same";
    const auto [c, d] = pairs(15, 1.10, 0.3, 0.02, seed + 1000);
    regression += bench::judge_pairs(c, d, 0.05, seed).verdict == "regression";
    const auto [e, f] = pairs(15, 0.90, 0.3, 0.02, seed + 2000);
    improvement += bench::judge_pairs(e, f, 0.05, seed).verdict == "improvement";
  }
  EXPECT_EQ(same, 200) << "the same kernel judged a change";
  EXPECT_GE(regression, 195) << "a 10% slowdown missed";
  EXPECT_GE(improvement, 195) << "a 10% speed-up missed";
  // Within the threshold: never a regression.
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const auto [a, b] = pairs(15, 1.02, 0.3, 0.02, seed);
    EXPECT_NE(bench::judge_pairs(a, b, 0.05, seed).verdict, "regression") << seed;
  }
}

TEST(PairedVerdict, IntervalAndDeterminism) {
  const auto [a, b] = pairs(21, 2.0, 0.2, 0.01, 5);
  const auto v = bench::judge_pairs(a, b, 0.05, 9);
  EXPECT_EQ(v.verdict, "regression");
  EXPECT_NEAR(v.ratio, 2.0, 0.03);
  EXPECT_LT(v.low, v.ratio);
  EXPECT_GT(v.high, v.ratio);
  const auto again = bench::judge_pairs(a, b, 0.05, 9);
  EXPECT_EQ(again.low, v.low);
  EXPECT_EQ(again.high, v.high);
  // Noisy sides with no shift: "same", marked uncertain when the interval reaches past the threshold.
  const auto [c, d] = pairs(5, 1.0, 0.3, 0.2, 3);
  const auto noisy = bench::judge_pairs(c, d, 0.05, 1);
  EXPECT_EQ(noisy.verdict, "same");
  EXPECT_TRUE(noisy.uncertain);
  EXPECT_THROW(bench::judge_pairs({1.0}, {1.0, 2.0}, 0.05), Error);
}

// mutants/equivalent.txt names systematic mutants by file, line and column: an edit above such a line
// moves it, and the argument would silently stop excluding its mutant (55 of 59 had, by
// 2026-11-24). Each entry must name a mutant of today's kernels.
TEST(SystematicMutants, EveryArguedEquivalentNamesAMutantOfTodaysKernels) {
  const std::string root = PLUMBLINE_SOURCE_DIR;
  std::set<std::string> ids;
  for (const auto& m : mutants::enumerate_mutations(root + "/opencl/kernels")) ids.insert(m.id());
  const auto equivalent = mutants::load_equivalent(root + "/mutants/equivalent.txt");
  ASSERT_FALSE(equivalent.empty());
  for (const auto& [id, argument] : equivalent)
    EXPECT_TRUE(ids.count(id)) << "mutants/equivalent.txt: '" << id << "' is no mutant of opencl/kernels/ any more: a kernel edit "
                               << "moved its line or column; point the entry at the code it argues about (" << argument << ")";
}

// A kernel file edited while a systematic run goes on: the mutant no longer fits its line, and the run
// says so (an Error naming the mutant), not an internal error from std::string.
TEST(SystematicMutants, AMutantThatNoLongerFitsItsLineIsAnError) {
  const mutants::Mutation m{"k.cl", 1, 36, " < ", " <= ", "boundary"};
  EXPECT_THROW(mutants::apply("short line\n", m), Error);
  EXPECT_THROW(mutants::apply("a line long enough to reach column 36, without the operator\n", m), Error);
  EXPECT_EQ(mutants::apply("  for (int i = 0; i < n; ++i)\n", {"k.cl", 1, 19, " < ", " <= ", "boundary"}), "  for (int i = 0; i <= n; ++i)\n");
}
