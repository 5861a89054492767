// The plumbline program end to end: exit statuses, messages, and eval through .npy files.
#include <gtest/gtest.h>

#include <chrono>

#include <array>
#include <fstream>
#include <signal.h>  // kill
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "core/problem.hpp"

#include "core/npy.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "proptests/test_support.hpp"
#include "reference/reference.hpp"

using namespace plumbline;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status;
  std::string output;  // stdout and stderr together
};

Outcome run(const std::string& args, const std::string& env = "") {
  const std::string cmd = env + " " + PLUMBLINE_BINARY + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

fs::path temp_dir() { return test::temp_dir("cli_test"); }

// Runs plumbline with ARGS and kills it (SIGKILL, as a timeout would) right after the first line of
// its output that contains NEEDLE; returns the output up to there. No timing: the kill follows the line.
std::string run_killed_after(const std::string& args, const std::string& needle, const std::string& env = "") {
  const std::string cmd = "sh -c 'echo $$; " + env + " exec " + std::string(PLUMBLINE_BINARY) + " " + args + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "";
  char line[4096];
  if (!fgets(line, sizeof line, p)) return "";
  const pid_t pid = std::atoi(line);
  std::string seen;
  while (fgets(line, sizeof line, p)) {
    seen += line;
    if (std::string(line).find(needle) != std::string::npos) break;
  }
  kill(pid, SIGKILL);
  pclose(p);
  return seen;
}

// Every file of a folder, one after another (a tuning database).
std::string read_folder(const fs::path& dir) {
  std::string text;
  for (const auto& f : fs::directory_iterator(dir)) {
    std::ifstream in(f.path());
    std::ostringstream ss;
    ss << in.rdbuf();
    text += ss.str();
  }
  return text;
}

// The last line of a folder's files that contains KEY ("" if none): a tuning database's entry.
std::string line_with(const fs::path& dir, const std::string& key) {
  std::istringstream in(read_folder(dir));
  std::string found;
  for (std::string l; std::getline(in, l);)
    if (l.find(key) != std::string::npos) found = l;
  return found;
}

}  // namespace

TEST(Cli, EvalWritesTheReferenceOutputsAsNpy) {
  const std::string line = "conv2d_bwd_weight:n=2,c=4,h=7,w=6,k=6,r=3,s=2,sh=2,sw=1,ph=1,pw=0,dh=1,dw=2,g=2,bias=1";
  const Problem p = Problem::parse(line);
  Rng rng(9);
  std::vector<TensorD> in;
  std::string files;
  for (const auto& decl : signature_of(p).inputs) {
    in.push_back(make_input(decl, Values::Normal, rng).convert<double>());
    const fs::path f = temp_dir() / (decl.name + ".npy");
    write_npy(f.string(), in.back());
    files += (files.empty() ? "" : ",") + f.string();
  }
  const fs::path out = temp_dir() / "out";
  fs::remove_all(out);
  const Outcome r = run("eval conv2d_bwd_weight --problem '" + line + "' --inputs " + files + " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const auto expected = run_reference(p, in);
  EXPECT_EQ(read_npy<double>((out / "d_w.npy").string()).data, expected[0].data);
  EXPECT_EQ(read_npy<double>((out / "d_bias.npy").string()).data, expected[1].data);
}

TEST(Cli, BadInputIsExitTwoWithAMessageNamingIt) {
  const Outcome unknown = run("gradcheck convolution");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("unknown operator 'convolution'; known operators:"), std::string::npos) << unknown.output;

  const Outcome bad_line = run("gradcheck --problem 'group_norm_bwd:c=6,g=4'");
  EXPECT_EQ(bad_line.status, 2);
  EXPECT_NE(bad_line.output.find("channels c=6 not divisible by groups g=4"), std::string::npos) << bad_line.output;

  const Outcome forward = run("gradcheck --problem 'softmax:m=2,n=3'");
  EXPECT_EQ(forward.status, 2);
  EXPECT_NE(forward.output.find("softmax is not a backward operator"), std::string::npos) << forward.output;

  const fs::path x = temp_dir() / "x35.npy";
  write_npy(x.string(), TensorD(Shape{3, 5}));
  const Outcome shape = run("eval softmax --problem 'softmax:m=3,n=4' --inputs " + x.string() + " --out " + (temp_dir() / "o").string());
  EXPECT_EQ(shape.status, 2);
  EXPECT_NE(shape.output.find("input 'x' must have shape [3,4], the file holds [3,5]"), std::string::npos) << shape.output;

  const Outcome count = run("eval add --problem 'add:n=15' --inputs " + x.string() + " --out " + (temp_dir() / "o").string());
  EXPECT_EQ(count.status, 2);
  EXPECT_NE(count.output.find("add takes 2 inputs"), std::string::npos) << count.output;

  const Outcome missing = run("eval softmax --problem 'softmax:m=3,n=5' --inputs /nonexistent.npy --out " + (temp_dir() / "o").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("cannot open /nonexistent.npy"), std::string::npos) << missing.output;

  const Outcome usage = run("gradcheck --cases -3 act_bwd");
  EXPECT_EQ(usage.status, 2) << usage.output;
}

TEST(Cli, GradcheckPassesAndWritesJson) {
  const fs::path json = temp_dir() / "g.json";
  const Outcome r = run("gradcheck conv2d --cases 4 --seed 3 --json " + json.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("conv2d_bwd_data        pass  4 cases"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("conv2d_bwd_weight      pass  4 cases"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::file_size(json) > 100);
}

#ifdef PLUMBLINE_WITH_OPENCL
TEST(Cli, EvalOnOpenCLGivesTheKernelsOutputs) {
  // Integer inputs make conv2d exact in float32: the kernel's outputs equal the reference's.
  const std::string line = "conv2d:n=2,c=4,h=9,w=7,k=6,r=3,s=3,sh=2,sw=1,ph=1,pw=2,dh=1,dw=2,g=2,bias=1";
  const Problem p = Problem::parse(line);
  Rng rng(4);
  std::vector<TensorD> in;
  std::string files;
  for (const auto& decl : signature_of(p).inputs) {
    in.push_back(make_input(decl, Values::Integers, rng).convert<double>());
    const fs::path f = temp_dir() / ("int_" + decl.name + ".npy");
    write_npy(f.string(), in.back());
    files += (files.empty() ? "" : ",") + f.string();
  }
  const fs::path out = temp_dir() / "out_ocl";
  const Outcome r = run("eval conv2d --problem '" + line + "' --inputs " + files + " --out " + out.string() + " --backend opencl");
  ASSERT_EQ(r.status, 0) << r.output;
  const TensorF got = read_npy<float>((out / "y.npy").string());
  const TensorD expected = run_reference(p, in)[0];
  ASSERT_EQ(got.numel(), expected.numel());
  for (int64_t i = 0; i < got.numel(); ++i) EXPECT_EQ(static_cast<double>(got[i]), expected[i]) << i;
}

#ifdef PLUMBLINE_WITH_OPENCL
// Reduced precision from the command line: a bf16 problem line is checked in bf16; eval takes float16
// .npy inputs and writes float16 outputs; a kernel whose parameters are float* cannot be run on f16
// buffers, and an input that is not an f16 value is refused rather than rounded.
TEST(CliDtype, CheckEvalAndAUsersKernelInF16AndBf16) {
  const Outcome c = run("check matmul --problem 'matmul:m=33,k=17,n=65,tb=1,dtype=bf16' --values normal --device pocl:0 --json " +
                        (temp_dir() / "bf16.json").string());
  EXPECT_EQ(c.status, 0) << c.output;
  std::ifstream jf(temp_dir() / "bf16.json");
  const auto j = nlohmann::json::parse(jf);
  EXPECT_NE(j.dump().find("dtype=bf16"), std::string::npos);

  const std::string line = "add:n=37,dtype=f16";
  const Problem p = Problem::parse(line);
  Rng rng(5);
  std::string files;
  std::vector<TensorF> in;
  for (const auto& decl : signature_of(p).inputs) {
    in.push_back(make_input(decl, Values::Uniform, rng, DType::F16));
    const fs::path f = temp_dir() / ("h_" + decl.name + ".npy");
    write_npy_f16(f.string(), in.back());
    files += (files.empty() ? "" : ",") + f.string();
  }
  const fs::path out = temp_dir() / "out_f16";
  const Outcome e = run("eval add --problem '" + line + "' --inputs " + files + " --out " + out.string() + " --backend opencl --device pocl:0");
  ASSERT_EQ(e.status, 0) << e.output;
  std::ifstream yf(out / "y.npy", std::ios::binary);
  std::string head(64, '\0');
  yf.read(head.data(), 64);
  EXPECT_NE(head.find("'<f2'"), std::string::npos) << head;
  const TensorF y = read_npy<float>((out / "y.npy").string());
  for (int64_t i = 0; i < 37; ++i) EXPECT_EQ(y[i], round_to(DType::F16, in[0][i] + in[1][i])) << i;

  TensorF tenth(Shape{37}, 0.1f);  // 0.1 is no f16 value
  write_npy((temp_dir() / "tenth.npy").string(), tenth);
  const Outcome bad = run("eval add --problem '" + line + "' --inputs " + (temp_dir() / "tenth.npy").string() + "," +
                          (temp_dir() / "tenth.npy").string() + " --out " + out.string() + " --backend opencl --device pocl:0");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("element 0 of input 'a' (0.100000) is not a f16 value"), std::string::npos) << bad.output;

  const fs::path k = temp_dir() / "add_f32.cl";
  std::ofstream(k) << "__kernel void add_f32(__global const float* a, __global const float* b, __global float* y, int n) {\n"
                      "  int i = get_global_id(0); if (i < n) y[i] = a[i] + b[i]; }\n";
  const Outcome f32_ok = run("check add --cases 8 --device pocl:0 --kernel-file " + k.string() + " --entry add_f32");
  EXPECT_EQ(f32_ok.status, 0) << f32_ok.output;
  const Outcome wrong_type = run("check add --cases 8 --device pocl:0 --kernel-file " + k.string() + " --entry add_f32 --dtypes f16");
  EXPECT_EQ(wrong_type.status, 2) << wrong_type.output;
  EXPECT_NE(wrong_type.output.find("buffer 'a' holds f16 values (half*), the parameter is float*"), std::string::npos) << wrong_type.output;
}
#endif

TEST(Cli, CheckFindsAPlantedKernelAndPrintsItsRepro) {
  const Outcome r = run("check max_pool2d_bwd --cases 20 --device pocl:0 --kernel-file " + std::string(PLUMBLINE_SOURCE_DIR) +
                        "/mutants/catalogue/max_pool2d_bwd_avg_spread.cl --entry spread");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL max_pool2d_bwd on pocl:0 [wrong]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("problem: max_pool2d_bwd:n=1,c=1,h=2,w=2,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("repro:   plumbline check max_pool2d_bwd --problem"), std::string::npos) << r.output;
  const Outcome wrong_entries = run("check max_pool2d_bwd --cases 2 --device pocl:0 --kernel-file " + std::string(PLUMBLINE_SOURCE_DIR) +
                                    "/mutants/catalogue/max_pool2d_bwd_avg_spread.cl --entry nope");
  EXPECT_EQ(wrong_entries.status, 2) << wrong_entries.output;
  EXPECT_NE(wrong_entries.output.find("creating kernel 'nope'"), std::string::npos) << wrong_entries.output;
}

// ---- launch plans: a user's kernel with its own NDRange, argument order and defines -------------

namespace {

std::string rb_gemm_flags(const std::string& file, int ts) {
  return "--kernel-file " + file +
         " --entry rb_gemm --args m,n,k,batch,ta,tb,a,b,y "
         "--global 'cdiv(n,TS)*(TS/WPT),cdiv(m,TS)*(TS/WPT),max(batch,1)' --local 'TS/WPT,TS/WPT,1' --define TS=" +
         std::to_string(ts) + ",WPT=4";
}

const std::string kRbGemm = std::string(PLUMBLINE_SOURCE_DIR) + "/examples/kernels/rb_gemm.cl";

}  // namespace

TEST(CliPlans, ARegisterBlockedGemmWithItsOwnLaunchPassesAtThreeTilings) {
  for (int ts : {16, 32, 64}) {
    const Outcome r = run("check matmul --cases 150 --device pocl:0 " + rb_gemm_flags(kRbGemm, ts));
    EXPECT_EQ(r.status, 0) << "TS=" << ts << "\n" << r.output;
    EXPECT_NE(r.output.find("pass  150 cases"), std::string::npos) << r.output;
  }
  // The same tilings as a plan file: each variant gets its share of the cases.
  const Outcome plan = run("check matmul --cases 150 --device pocl:0 --plan " + std::string(PLUMBLINE_SOURCE_DIR) + "/examples/kernels/rb_gemm.plan");
  EXPECT_EQ(plan.status, 0) << plan.output;
  EXPECT_NE(plan.output.find("pass  150 cases (ts16 50, ts32 50, ts64 50)"), std::string::npos) << plan.output;
}

TEST(CliPlans, TheSameGemmWithoutItsLastKTileIsCaughtWithARunnableRepro) {
  const std::string bug = std::string(PLUMBLINE_SOURCE_DIR) + "/mutants/catalogue/matmul_rb_gemm_drops_last_k_tile.cl";
  const Outcome r = run("check matmul --cases 150 --device pocl:0 " + rb_gemm_flags(bug, 32));
  ASSERT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL matmul on pocl:0 [wrong]"), std::string::npos) << r.output;
  // Shrunk to the smallest problem: one output, a depth below one tile.
  EXPECT_NE(r.output.find("problem: matmul:batch=0,m=1,k=1,n=1,ta=0,tb=0"), std::string::npos) << r.output;
  const size_t at = r.output.find("repro:   plumbline ");
  ASSERT_NE(at, std::string::npos);
  const std::string repro = r.output.substr(at + 19, r.output.find('\n', at) - at - 19);
  EXPECT_NE(repro.find("--define TS=32,WPT=4"), std::string::npos) << repro;
  const Outcome again = run(repro);
  EXPECT_EQ(again.status, 1) << repro << "\n" << again.output;
  EXPECT_NE(again.output.find("FAIL matmul on pocl:0 [wrong]"), std::string::npos) << again.output;
}

// --when restricts a kernel file to the problems it serves (as a plan's when line): only those are
// drawn; a name that is neither an attribute nor a define is an error naming the flag.
TEST(CliPlans, WhenRestrictsAKernelFileToTheProblemsItServes) {
  const fs::path json = temp_dir() / "when.json";
  const std::string kernel = std::string(PLUMBLINE_SOURCE_DIR) + "/examples/kernels/rb_gemm.cl";
  const Outcome r =
      run("check matmul --cases 24 --device pocl:0 " + rb_gemm_flags(kernel, 16) + " --when 'ta == 0 && batch == 0' --json " + json.string());
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream f(json);
  const auto j = nlohmann::json::parse(f);
  ASSERT_EQ(j["cases"].size(), 24u);
  for (const auto& c : j["cases"]) {
    const Problem p = Problem::parse(c["problem"].get<std::string>());
    EXPECT_EQ(p.i("ta"), 0) << p.line();
    EXPECT_EQ(p.i("batch"), 0) << p.line();
  }
  const Outcome bad = run("check matmul --cases 2 --device pocl:0 " + rb_gemm_flags(kernel, 16) + " --when 'tx == 0'");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--when: 'tx == 0': unknown name 'tx'; matmul has the attributes"), std::string::npos) << bad.output;
}

// A kernel that keeps IEEE arithmetic's answers at the edges (gelu_tanh as its formula reads: NaN at
// -Inf): under --nonfinite ieee, or its plan's `nonfinite ieee` line, it passes and the summary says
// how many elements only that policy passed; under the default it fails naming the rule, and the repro
// of a run under ieee carries the policy.
TEST(CliPlans, TheNonfinitePolicyJudgesAKernelsEdgeAnswers) {
  const std::string file = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/act_gelu_tanh_literal.cl";
  const std::string kernel = " --device pocl:0 --values edge --cases 12 --kernel-file " + file + " --entry gelu_tanh_literal --when 'act == 2'";
  const Outcome ieee = run("check act --nonfinite ieee" + kernel);
  EXPECT_EQ(ieee.status, 0) << ieee.output;
  EXPECT_NE(ieee.output.find("act/user: judged under the ieee non-finite policy: "), std::string::npos) << ieee.output;
  const Outcome limits = run("check act" + kernel);
  EXPECT_EQ(limits.status, 1) << limits.output;
  EXPECT_NE(limits.output.find("[non-finite: limit]: output 'y' element "), std::string::npos) << limits.output;
  EXPECT_NE(limits.output.find("gelu_tanh(-Inf) is -0 by its limit, where IEEE evaluation of x times its gate gives -Inf x 0 = NaN; "
                               "--nonfinite ieee accepts it]"),
            std::string::npos)
      << limits.output;
  // The plan line says it for the variant; --nonfinite limits overrides it, and its repro says so.
  const fs::path plan = temp_dir() / "gelu_literal.plan";
  std::ofstream(plan) << "op act\nvariant literal\n  nonfinite ieee gelu_tanh as its formula reads keeps IEEE's NaN at -Inf\n  file " << file
                      << "\n  when act == 2\n  step gelu_tanh_literal\n    args x, y, n, act\n    global n\n";
  const Outcome planned = run("check act --device pocl:0 --values edge --cases 12 --plan " + plan.string());
  EXPECT_EQ(planned.status, 0) << planned.output;
  EXPECT_NE(planned.output.find("act/literal: judged under the ieee non-finite policy"), std::string::npos) << planned.output;
  const Outcome overridden = run("check act --device pocl:0 --values edge --cases 12 --nonfinite limits --plan " + plan.string());
  EXPECT_EQ(overridden.status, 1) << overridden.output;
  EXPECT_NE(overridden.output.find("--nonfinite limits"), std::string::npos) << "the repro carries the policy\n" << overridden.output;
  const Outcome bad = run("check act --nonfinite lenient" + kernel);
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--nonfinite 'lenient': the non-finite policies are limits (the default) and ieee"), std::string::npos) << bad.output;
}

// Kernels in a numeric mode (docs/verification.md): a user's TF32 GEMM, our TF32 GEMM and a user's
// Winograd F(4x4, 3x3) convolution pass under their mode and fail the exact contract; the repro lines carry the mode; the
// catalogue's TF32 that keeps bf16's bits fails its mode; a problem the mode cannot compute is refused
// naming what it needs.
TEST(CliPlans, KernelsInANumericModeAreJudgedUnderItsBound) {
  const std::string src = PLUMBLINE_SOURCE_DIR;
  const std::string tf32 = " --device pocl:0 --cases 24 --kernel-file " + src + "/examples/kernels/matmul_tf32.cl --entry matmul_tf32";
  const Outcome in_mode = run("check matmul --math tf32" + tf32);
  EXPECT_EQ(in_mode.status, 0) << in_mode.output;
  const Outcome exact = run("check matmul --values normal" + tf32);
  EXPECT_EQ(exact.status, 1) << exact.output;
  EXPECT_NE(exact.output.find("FAIL matmul on pocl:0 [wrong]: "), std::string::npos) << exact.output;
  const Outcome bf16_bits = run("check matmul --math tf32 --device pocl:0 --cases 100 --kernel-file " + src +
                                "/mutants/catalogue/matmul_tf32_keeps_bf16_bits.cl --entry matmul_tf32");
  EXPECT_EQ(bf16_bits.status, 1) << bf16_bits.output;
  EXPECT_NE(bf16_bits.output.find("[wrong] in tf32: "), std::string::npos) << bf16_bits.output;
  EXPECT_NE(bf16_bits.output.find(" of tf32 ("), std::string::npos) << "the bound names its mode\n" << bf16_bits.output;
  EXPECT_NE(bf16_bits.output.find("--entry matmul_tf32 --math tf32\n"), std::string::npos) << "the repro carries the mode\n" << bf16_bits.output;

  // Our TF32 GEMM on the tensor cores (gemm.plan's tf32, the instruction emulated): its mode, then the
  // exact contract.
  const std::string ours = " --device pocl:0 --values normal --plan " + src +
                           "/proptests/kernels/mma_emulated.plan --variant tf32_emulated --problem 'matmul:batch=0,m=70,k=130,n=66,ta=0,tb=1'";
  const Outcome ours_in_mode = run("check matmul" + ours);
  EXPECT_EQ(ours_in_mode.status, 0) << ours_in_mode.output;
  const Outcome ours_exact = run("check matmul --math exact" + ours);
  EXPECT_EQ(ours_exact.status, 1) << ours_exact.output;
  EXPECT_NE(ours_exact.output.find("FAIL matmul on pocl:0 [wrong]: "), std::string::npos) << ours_exact.output;

  const std::string winograd =
      " --device pocl:0 --cases 24 --kernel-file " + src +
      "/examples/kernels/conv2d_winograd_f4x3.cl --entry conv2d_winograd_f4x3 --args tensor:x,tensor:w,y,n,c,h,attr:w,k,ph,pw "
      "--global 'cdiv(dim(y,3),4),cdiv(dim(y,2),4),n*k'";
  const Outcome w_mode = run("check conv2d --when 'g == 1 && bias == 0' --math 'winograd(4,3)'" + winograd);
  EXPECT_EQ(w_mode.status, 0) << w_mode.output;
  const Outcome w_exact =
      run("check conv2d --values normal --when 'g == 1 && bias == 0 && r == 3 && s == 3 && sh == 1 && sw == 1 && dh == 1 && dw == 1'" + winograd);
  EXPECT_EQ(w_exact.status, 1) << w_exact.output;
  EXPECT_NE(w_exact.output.find("FAIL conv2d on pocl:0 [wrong]: "), std::string::npos) << w_exact.output;
  const Outcome strided = run("check conv2d --problem 'conv2d:h=8,w=8,r=3,s=3,sh=2' --when 'g == 1 && bias == 0' --math 'winograd(4,3)'" + winograd);
  EXPECT_EQ(strided.status, 2) << strided.output;
  EXPECT_NE(strided.output.find("r == 3 && s == 3 && sh == 1 && sw == 1 && dh == 1 && dw == 1"), std::string::npos) << strided.output;
  const Outcome unknown = run("check matmul --math tf64" + tf32);
  EXPECT_EQ(unknown.status, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("numeric mode 'tf64': the modes are exact (the default), tf32, bf16x3, winograd(2,3), winograd(4,3)"),
            std::string::npos)
      << unknown.output;
}

// A library's kernels as they ship: a program of three files, parameter types named by typedefs that the
// build's defines choose (real_arg, realV* as float4* under VW=4); a planted bug in that style is caught
// with a repro that fails again; a type plumbline cannot read is refused naming it and the plan line
// that declares it, and the declared one passes.
TEST(CliPlans, ALibrarysKernelsPlugInUnchanged) {
  const std::string dir = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/library_style/";
  const Outcome good = run("check add --cases 40 --device pocl:0 --plan " + dir + "xaxpy.plan");
  EXPECT_EQ(good.status, 0) << good.output;
  EXPECT_NE(good.output.find("pass  40 cases (scalar 20, vec4 20)"), std::string::npos) << good.output;
  const Outcome bad = run("check add --cases 40 --device pocl:0 --plan " + dir + "xaxpy_drops_last_vector.plan");
  ASSERT_EQ(bad.status, 1) << bad.output;
  const size_t at = bad.output.find("repro:   plumbline ");
  ASSERT_NE(at, std::string::npos) << bad.output;
  const Outcome again = run(bad.output.substr(at + 19, bad.output.find('\n', at) - at - 19));
  EXPECT_EQ(again.status, 1) << again.output;
  const Outcome opaque = run("check add --cases 4 --device pocl:0 --plan " + dir + "opaque.plan");
  EXPECT_EQ(opaque.status, 2) << opaque.output;
  EXPECT_NE(opaque.output.find("the parameter is real_t* ('real_t' is no OpenCL type, and no typedef or #define of it is read under this build's "
                               "defines: declare it in the plan, e.g. `type real_t float`)"),
            std::string::npos)
      << opaque.output;
  const Outcome declared = run("check add --cases 4 --device pocl:0 --plan " + dir + "opaque_declared.plan");
  EXPECT_EQ(declared.status, 0) << declared.output;
}

TEST(CliPlans, BenchTimesAUserKernelWithItsOwnLaunch) {
  const fs::path json = temp_dir() / "rb_gemm_bench.json";
  fs::remove(json);
  const Outcome r = run("bench --problem 'matmul:m=96,k=70,n=80' --device pocl:0 --repetitions 3 --min-time 0.01 --json " + json.string() + " " +
                        rb_gemm_flags(kRbGemm, 32));
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream f(json);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"label\": \"variant user\""), std::string::npos) << text.substr(0, 2000);
  EXPECT_NE(text.find("\"real_time\""), std::string::npos);
  EXPECT_NE(text.find("kernel " + kRbGemm), std::string::npos) << "the JSON names the kernel timed";
}

// A plan of several steps: bench reports each step's time (counters "step_NN ENTRY", in the plan's
// order), and in every repetition they add up to the benchmark's time, which is their sum.
namespace {

// `plumbline bench ARGS --json FILE` (3 repetitions on PoCL): its outcome, the JSON's context and its
// repetitions (the entries of run_type "iteration"; none when the run failed).
struct BenchRun {
  Outcome outcome;
  nlohmann::json context;
  std::vector<nlohmann::json> repetitions;
};

BenchRun run_bench(const std::string& args, const std::string& json_name) {
  const fs::path json = temp_dir() / json_name;
  fs::remove(json);
  BenchRun b{run("bench " + args + " --device pocl:0 --repetitions 3 --min-time 0.01 --json " + json.string()), {}, {}};
  if (b.outcome.status != 0) return b;
  std::ifstream f(json);
  const nlohmann::json j = nlohmann::json::parse(f);
  b.context = j.at("context");
  for (const auto& r : j.at("benchmarks"))
    if (r.at("run_type") == "iteration") b.repetitions.push_back(r);
  return b;
}

}  // namespace

TEST(CliPlans, BenchGoesOnPastALineThatFailsAndPrefersTunedEntriesThatServe) {
  // A tuned entry for this device whose defines hold rows of 1024 at most (as the H200's for
  // layer_norm_bwd's `rows`): a row of 4096 runs `rows` at the plan's defines instead of stopping the
  // batch, a line too large for the machine is reported, and the lines after it are timed; exit 2.
  const std::string devices = run("devices --device pocl:0").output;
  const std::string name = devices.substr(devices.find("pocl:0") + 8, devices.find('\n') - devices.find("pocl:0") - 8);
  const size_t at = devices.find("driver:") + 7;
  const std::string driver = devices.substr(devices.find_first_not_of(' ', at), devices.find(',', at) - devices.find_first_not_of(' ', at));
  const fs::path db = temp_dir() / "narrow_tuning";
  fs::create_directories(db);
  std::ofstream(db / "t.tuning") << name << " | " << driver << " | layer_norm_bwd | rows | all | NORM_WG=128 PER=8 ROWS=16 | a test\n";
  const Outcome r =
      run("bench --problem 'layer_norm_bwd:m=16,n=4096' --problem 'matmul:m=2147483648,k=1,n=1' --problem 'layer_norm_bwd:m=16,n=512'"
          " --device pocl:0 --repetitions 1 --min-time 0.001",
          "PLUMBLINE_TUNING_DIR=" + db.string());
  EXPECT_EQ(r.status, 2) << r.output;
  auto line_of = [&](const std::string& problem) {
    const size_t from = r.output.find(problem + "@pocl:0");
    return from == std::string::npos ? std::string() : r.output.substr(from, r.output.find('\n', from) - from);
  };
  EXPECT_NE(line_of("layer_norm_bwd:m=16,n=4096,eps=1e-05").find("variant rows "), std::string::npos) << r.output;
  EXPECT_NE(line_of("matmul:batch=0,m=2147483648,k=1,n=1,ta=0,tb=0").find("FAILED: not timed: "), std::string::npos) << r.output;
  EXPECT_NE(line_of("layer_norm_bwd:m=16,n=512,eps=1e-05").find("variant rows@all"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bench: 1 line(s) not timed: 0 failed their check, 1 could not run"), std::string::npos) << r.output;
}

TEST(CliPlans, BenchReportsEachStepOfAPlan) {
  const BenchRun bench = run_bench("--problem 'gemm_bias_act_bwd:m=40,k=24,n=36,act=gelu_tanh' --variant xgemm", "steps_bench.json");
  ASSERT_EQ(bench.outcome.status, 0) << bench.outcome.output;
  EXPECT_NE(bench.outcome.output.find("steps (ms): xgemm_pre "), std::string::npos) << bench.outcome.output;
  const std::vector<std::string> expected{"step_01 xgemm_pre", "step_02 grad_pre_partial_sums", "step_03 xgemm_float_a", "step_04 xgemm_float_b",
                                          "step_05 column_sums_finish"};
  for (const auto& b : bench.repetitions) {
    double sum = 0;
    for (const auto& key : expected) {
      ASSERT_TRUE(b.contains(key)) << key << " missing from " << b.dump();
      EXPECT_GT(b.at(key).get<double>(), 0.0) << key;
      sum += b.at(key).get<double>();
    }
    EXPECT_FALSE(b.contains("step_06 column_sums_finish")) << b.dump();
    EXPECT_NEAR(sum, b.at("real_time").get<double>(), 1e-9 + 1e-6 * sum) << b.dump();  // both in ms
  }
  EXPECT_EQ(bench.repetitions.size(), 3u);
}

// --timing stream: each repetition one burst of launches back to back (one iteration of Google
// Benchmark), its time the burst's mean per launch; no step times (only the first start and the last
// end are read); the timing named in the JSON's context, where compare.py reads it. A kernel that fails
// its check is still reported, never timed.
TEST(CliPlans, BenchStreamTimesBurstsOfLaunchesAfterTheCheck) {
  const BenchRun bench = run_bench("--problem 'sum:m=3,n=5000,over=row' --variant split --timing stream", "stream_bench.json");
  ASSERT_EQ(bench.outcome.status, 0) << bench.outcome.output;
  EXPECT_EQ(bench.outcome.output.find("steps (ms)"), std::string::npos) << bench.outcome.output;
  EXPECT_EQ(bench.context.at("plumbline.timing"), "stream");
  for (const auto& b : bench.repetitions) {
    EXPECT_EQ(b.at("iterations").get<int>(), 1) << b.dump();
    EXPECT_GT(b.at("real_time").get<double>(), 0.0) << b.dump();
    EXPECT_FALSE(b.contains("step_01 reduce_partials")) << b.dump();
  }
  EXPECT_EQ(bench.repetitions.size(), 3u);

  const Outcome wrong = run("bench --problem 'matmul:m=40,k=50,n=30' --timing stream --device pocl:0 --repetitions 3 --min-time 0.01 " +
                            rb_gemm_flags(std::string(PLUMBLINE_SOURCE_DIR) + "/mutants/catalogue/matmul_rb_gemm_drops_last_k_tile.cl", 32));
  EXPECT_EQ(wrong.status, 1) << wrong.output;
  EXPECT_NE(wrong.output.find("not timed: the kernel fails its check"), std::string::npos) << wrong.output;

  // --jobs: the lines checked by child processes side by side, then timed here; a wrong kernel's lines
  // are still not timed, each with its failure.
  const std::string lines = "--problem 'matmul:m=40,k=50,n=30' --problem 'matmul:m=96,k=70,n=80' --problem 'matmul:m=33,k=64,n=17' ";
  const Outcome jobs = run("bench " + lines + "--jobs 2 --device pocl:0 --repetitions 3 --min-time 0.01 " + rb_gemm_flags(kRbGemm, 32));
  EXPECT_EQ(jobs.status, 0) << jobs.output;
  EXPECT_NE(jobs.output.find("bench: 3 of 3 line(s) checked side by side"), std::string::npos) << jobs.output;
  EXPECT_NE(jobs.output.find("matmul:batch=0,m=33,k=64,n=17,ta=0,tb=0@pocl:0 "), std::string::npos) << jobs.output;
  const Outcome wrong_jobs = run("bench " + lines + "--jobs 2 --device pocl:0 --repetitions 3 --min-time 0.01 " +
                                 rb_gemm_flags(std::string(PLUMBLINE_SOURCE_DIR) + "/mutants/catalogue/matmul_rb_gemm_drops_last_k_tile.cl", 32));
  EXPECT_EQ(wrong_jobs.status, 1) << wrong_jobs.output;
  EXPECT_NE(wrong_jobs.output.find("bench: 3 of 3 line(s) checked side by side"), std::string::npos) << wrong_jobs.output;
  EXPECT_NE(wrong_jobs.output.find("matmul:batch=0,m=40,k=50,n=30,ta=0,tb=0@pocl:0"), std::string::npos);
  EXPECT_NE(wrong_jobs.output.find("not timed: the kernel fails its check"), std::string::npos) << wrong_jobs.output;
  EXPECT_NE(wrong_jobs.output.find("repro: plumbline check matmul"), std::string::npos) << wrong_jobs.output;

  const Outcome unknown = run("bench --problem 'sum:m=3,n=5,over=row' --timing fast --device pocl:0");
  EXPECT_EQ(unknown.status, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("unknown timing 'fast'"), std::string::npos) << unknown.output;
}

TEST(CliPlans, PlanErrorsNameTheLineTheParameterAndTheProblem) {
  // One argument short: the message names the parameter that has none.
  const Outcome missing =
      run("check matmul --cases 2 --device pocl:0 --kernel-file " + kRbGemm + " --entry rb_gemm --args m,n,k,batch,ta,tb,a,b --global 'n,m'");
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("kernel rb_gemm takes 9 parameters, the plan gives 8 arguments"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("parameter 9 'global float* y' has no argument"), std::string::npos) << missing.output;
  // A work-group larger than the device allows.
  const Outcome big = run("check matmul --problem 'matmul:m=4,k=4,n=4' --device pocl:0 --kernel-file " + kRbGemm +
                          " --entry rb_gemm --args m,n,k,batch,ta,tb,a,b,y --global 'TS,TS,TS' --local 'TS,TS,TS' --define TS=32,WPT=4");
  EXPECT_EQ(big.status, 2) << big.output;
  EXPECT_NE(big.output.find("a work-group of 32768 work-items exceeds the limit of"), std::string::npos) << big.output;
  EXPECT_NE(big.output.find("problem matmul:batch=0,m=4,k=4,n=4,ta=0,tb=0"), std::string::npos) << big.output;
  // A plan file's mistake: FILE:LINE.
  const fs::path plan = temp_dir() / "bad.plan";
  std::ofstream(plan) << "op matmul\nvariant v\n  step rb_gemm\n    args m, n, k, batch, ta, tb, a, b, y\n    global cdiv(n, TS)\n";
  const Outcome bad = run("check matmul --cases 2 --device pocl:0 --plan " + plan.string());
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find(plan.string() + ":5: 'cdiv(n, TS)': unknown name 'TS'"), std::string::npos) << bad.output;
}

// A local(BYTES) argument counts once against the device's local memory. Once it is set, drivers
// count it in CL_KERNEL_LOCAL_MEM_SIZE too (PoCL and NVIDIA do): checked after binding, a kernel with
// 60% of PoCL's 1 MiB in one argument was refused as needing 120%.
TEST(CliPlans, ALocalArgumentCountsOnceAgainstLocalMemory) {
  const fs::path dir = temp_dir();
  std::ofstream(dir / "big_local.cl") << "__kernel void add_via_local(__global const float* a, __global const float* b, __global float* y,\n"
                                         "                            __local float* scratch, int n) {\n"
                                         "  const int i = get_global_id(0);\n"
                                         "  if (i < n) { scratch[get_local_id(0)] = a[i] + b[i]; y[i] = scratch[get_local_id(0)]; }\n"
                                         "}\n";
  auto plan = [&](int bytes) {
    const fs::path p = dir / ("big_local_" + std::to_string(bytes) + ".plan");
    std::ofstream(p) << "op add\nvariant big_local\n  file big_local.cl\n  step add_via_local\n    args a, b, y, local(" << bytes
                     << "), n\n    global roundup(n, 64)\n    local 64\n";
    return p.string();
  };
  // 60% and 110% of the device's local memory (PoCL reports 1 MiB on some CPUs, 2 MiB on others).
  const Outcome devices = run("devices");
  const size_t at = devices.output.find("local memory:", devices.output.find("pocl:0"));
  ASSERT_NE(at, std::string::npos) << devices.output;
  const long kib = std::stol(devices.output.substr(at + 13));
  ASSERT_GT(kib, 0) << devices.output;
  const int fitting = static_cast<int>(kib * 1024 * 6 / 10), over = static_cast<int>(kib * 1024 * 11 / 10);
  const Outcome fits = run("check add --cases 3 --device pocl:0 --plan " + plan(fitting));
  EXPECT_EQ(fits.status, 0) << fits.output;
  const Outcome too_big = run("check add --cases 3 --device pocl:0 --plan " + plan(over));
  EXPECT_EQ(too_big.status, 2) << too_big.output;
  EXPECT_NE(too_big.output.find("the kernel needs " + std::to_string(over) + " bytes of local memory"), std::string::npos) << too_big.output;
}

TEST(CliPlans, OpsListsTheVariants) {
  const Outcome r = run("ops --variants");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("variant seed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("conv2d_forward_bias (when bias == 1): global (roundup(numel(y), 256)) local (256)"), std::string::npos) << r.output;
}

TEST(CliTune, EveryCandidateIsCheckedBeforeItIsTimedAndAWrongOneIsNeverChosen) {
  // A tunable add that is wrong when VW = 4 (it drops the tail): the tuner reports those candidates
  // with their repros, times the others, and writes the fastest right one to the database. Read from
  // an empty database (no warm start from this tree's entries), with a wrong --start candidate: the
  // note of where a candidate came from stays on its first line, and every repro line runs as is.
  const fs::path db = temp_dir() / "tuning_db", json = temp_dir() / "tune.json";
  fs::remove_all(db);
  fs::create_directories(db);
  const std::string plan = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/vadd_tunable.plan";
  const Outcome r = run("tune add --plan " + plan + " --problem 'add:n=100000' --device pocl:0 --budget 60 --db " + db.string() + " --json " +
                            json.string() + " --start 'VW=4 WG=128'",
                        "PLUMBLINE_TUNING_DIR=" + db.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("VW=4 WG=64: WRONG, discarded: unwritten"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("VW=4 WG=128: WRONG, discarded: unwritten"), std::string::npos) << r.output;
  {
    std::istringstream lines(r.output);
    int repros = 0;
    for (std::string l; std::getline(lines, l);)
      if (l.find("repro: plumbline ") != std::string::npos) {
        ++repros;
        EXPECT_TRUE(l.ends_with("--variant vadd")) << "a repro line with more after it: " << l;
      }
    EXPECT_EQ(repros, 2) << r.output;
  }
  EXPECT_NE(r.output.find("8 candidates in"), std::string::npos) << "the whole space of 8 fits the budget\n" << r.output;
  // Wrong candidates were never timed; every right one was.
  std::ifstream jf(json);
  const auto j = nlohmann::json::parse(jf);
  int wrong = 0, timed = 0;
  for (const auto& c : j["results"][0]["candidates"]) {
    const bool vw4 = c["defines"].get<std::string>().find("VW=4") != std::string::npos;
    EXPECT_EQ(c["status"].get<std::string>(), vw4 ? "wrong" : "timed") << c.dump();
    EXPECT_EQ(c["seconds"].get<double>() > 0, !vw4) << c.dump();
    wrong += vw4;
    timed += !vw4;
  }
  EXPECT_EQ(wrong, 2);
  EXPECT_EQ(timed, 6);
  // The database entry: the winner is one of the right candidates.
  const std::string entry = line_with(db, " | add | vadd | all | ");
  ASSERT_FALSE(entry.empty()) << "no database entry written";
  EXPECT_EQ(entry.find("VW=4"), std::string::npos) << entry;
  EXPECT_NE(entry.find("(2 wrong, 0 invalid)"), std::string::npos) << entry;
  EXPECT_EQ(entry.find("written while the search went on"), std::string::npos) << "the search ended: its entry says so\n" << entry;
  // Each wrong candidate's repro fails again on its own.
  const size_t at = r.output.find("repro: plumbline ");
  ASSERT_NE(at, std::string::npos);
  const std::string repro = r.output.substr(at + 17, r.output.find('\n', at) - at - 17);
  const Outcome again = run(repro);
  EXPECT_EQ(again.status, 1) << repro << "\n" << again.output;
}

TEST(CliTune, ARunCutOffKeepsTheBestCandidateSoFar) {
  // tune writes a class's entry whenever it has a new best, before it prints "best so far": killed
  // right after that line (as a timeout would), the database already holds the entry, marked as cut
  // off. No timing involved: the kill follows the line.
  const fs::path db = temp_dir() / "tuning_db_cut";
  fs::remove_all(db);
  const std::string plan = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/vadd_tunable.plan";
  const std::string seen =
      run_killed_after("tune add --plan " + plan + " --problem add:n=100000 --device pocl:0 --budget 600 --db " + db.string(), "best so far");
  ASSERT_NE(seen.find("best so far"), std::string::npos) << seen;
  const std::string entry = line_with(db, " | add | vadd | all | ");
  ASSERT_FALSE(entry.empty()) << "nothing written before the kill\n" << seen;
  EXPECT_NE(entry.find("written while the search went on"), std::string::npos) << entry;
}

TEST(CliTune, AClasssOwnEntryIsTriedWhateverTheBudget) {
  // The entry a run writes replaces the class's entry, so the run compares the two even when its
  // budget ends first (here it ends during the plan's defaults): it never writes a slower entry over
  // one it did not try. No timing involved: every candidate outlasts a budget of a millisecond.
  const fs::path db = temp_dir() / "tuning_db_incumbent";
  fs::remove_all(db);
  const std::string plan = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/vadd_tunable.plan";
  const std::string tune = "tune add --plan " + plan + " --problem add:n=100000 --device pocl:0 --budget 0.001 --db " + db.string();
  const Outcome first = run(tune);
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("1 candidates in"), std::string::npos) << "the defaults alone\n" << first.output;
  // The class's entry, made another right point of the space, as an earlier run could have left it.
  fs::path file;
  std::string text;
  for (const auto& f : fs::directory_iterator(db)) {
    std::ifstream in(f.path());
    std::ostringstream ss;
    ss << in.rdbuf();
    file = f.path(), text = ss.str();
  }
  const size_t at = text.find("| VW=1 WG=64 |");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 14, "| VW=2 WG=128 |");
  std::ofstream(file) << text;
  const Outcome second = run(tune, "PLUMBLINE_TUNING_DIR=" + db.string());
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_NE(second.output.find("VW=2 WG=128: "), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("(database: this class's entry)"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("2 candidates in"), std::string::npos) << second.output;
}

TEST(CliTune, ARunCutOffLeavesTheClasssEntryAlone) {
  // A class with a working entry keeps it until a winner is confirmed against it: a run killed right
  // after its first "best so far" (the class's entry, tried first) leaves the entry's line as it was,
  // where a write during the search would have replaced it (2026-11-25: a cut-off H100 run put the plan's
  // defaults over a tuned entry). No timing involved: the kill follows the line.
  const fs::path db = temp_dir() / "tuning_db_kept";
  fs::remove_all(db);
  const std::string plan = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/vadd_tunable.plan";
  const Outcome first = run("tune add --plan " + plan + " --problem add:n=100000 --device pocl:0 --budget 0.001 --db " + db.string());
  ASSERT_EQ(first.status, 0) << first.output;
  const std::string before = read_folder(db);
  ASSERT_NE(before.find(" | add | vadd | all | "), std::string::npos) << before;
  const std::string seen = run_killed_after("tune add --plan " + plan + " --problem add:n=100000 --device pocl:0 --budget 600 --db " + db.string(),
                                            "best so far", "PLUMBLINE_TUNING_DIR=" + db.string());
  ASSERT_NE(seen.find("(database: this class's entry)"), std::string::npos) << seen;
  EXPECT_EQ(read_folder(db), before) << seen;
}

// ---- a kernel that crashes, hangs or asks for too much never takes the run down --------------------

TEST(CliIsolation, AWildWriteIsACrashedVerdictWithARepro) {
  const fs::path json = temp_dir() / "wild.json";
  const Outcome r = run("check act --cases 6 --device pocl:0 --kernel-file " + std::string(PLUMBLINE_SOURCE_DIR) +
                        "/proptests/kernels/act_wild_write.cl --entry wild --json " + json.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL act on pocl:0 [crashed]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("repro:   plumbline check act --problem"), std::string::npos) << r.output;
  std::ifstream f(json);
  const auto j = nlohmann::json::parse(f);
  ASSERT_FALSE(j["cases"].empty());
  for (const auto& c : j["cases"]) EXPECT_EQ(c["verdict"], "crashed") << c.dump();
  EXPECT_EQ(j["failures"].size(), j["cases"].size());
}

// A write past the guards into what would be the host's heap faults at once (fenced buffers on CPU
// devices): [crashed] in its case, one FAIL block a failure, nothing of glibc's heap checks.
TEST(CliIsolation, AWriteIntoTheHostsHeapIsACrashedVerdictInItsCase) {
  const Outcome r = run("check act --cases 4 --device pocl:0 --kernel-file " + std::string(PLUMBLINE_SOURCE_DIR) +
                        "/proptests/kernels/act_heap_write.cl --entry heap");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL act on pocl:0 [crashed]"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("malloc"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("free()"), std::string::npos) << r.output;
  size_t blocks = 0;
  for (size_t at = r.output.find("FAIL act"); at != std::string::npos; at = r.output.find("FAIL act", at + 1)) ++blocks;
  EXPECT_EQ(blocks, 3u) << "one block a failure, up to the three after which act stops\n" << r.output;
}

// Arguments given in the wrong order (the output where the kernel reads, an input where it writes): a
// warning before the launch names both, and the kernel fails its cases.
TEST(CliIsolation, SwappedArgumentsAreNamedBeforeTheLaunch) {
  const Outcome r = run("check act --cases 2 --device pocl:0 --kernel-file " + std::string(PLUMBLINE_SOURCE_DIR) +
                        "/opencl/kernels/elementwise.cl --entry act_forward --args y,x,n,act --global n");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("plumbline: warning: step act_forward (command line): arguments in the wrong order?"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("output 'y' is bound to parameter 1 (const global "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("input 'x' is bound to parameter 2 (global "), std::string::npos) << r.output;
}

TEST(CliIsolation, AHangingKernelIsAHungVerdictAndTheRunGoesOn) {
  const Outcome r = run("check act --cases 2 --device pocl:0 --timeout 1 --kernel-file " + std::string(PLUMBLINE_SOURCE_DIR) +
                        "/proptests/kernels/act_hangs.cl --entry hang");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL act on pocl:0 [hung]: watchdog: hang did not finish within 1 s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("act                    pocl:0    FAIL  2 cases"), std::string::npos) << "both cases ran\n" << r.output;
}

TEST(CliIsolation, AnAbortingHostPathEndsOneOperatorAndEveryOtherIsReported) {
  // A test hook aborts the check process before every case of act (an abort in the host path).
  const fs::path json = temp_dir() / "abort.json", out = temp_dir() / "gate_abort";
  const Outcome r =
      run("gate --op act --op add --op mul --no-bench --no-report --cases 8 --device pocl:0 --out " + out.string(), "PLUMBLINE_INJECT_ABORT=act");
  EXPECT_EQ(r.status, 1) << r.output;
  std::ifstream f(out / "check.json");
  const auto j = nlohmann::json::parse(f);
  std::map<std::string, std::set<std::string>> verdicts;
  for (const auto& c : j["cases"]) verdicts[c["op"]].insert(c["verdict"]);
  EXPECT_EQ(verdicts["act"], (std::set<std::string>{"crashed"}));
  EXPECT_EQ(verdicts["add"], (std::set<std::string>{"pass"}));
  EXPECT_EQ(verdicts["mul"], (std::set<std::string>{"pass"}));
}

TEST(CliIsolation, AnOperatorInPartsChecksTheSameCasesAsInOne) {
  // With 8 jobs softmax's 7 variants on PoCL run in two parts side by side (every other variant each):
  // the same cases, one summary line, as with one job.
  std::map<int, std::multiset<std::string>> cases;
  for (int jobs : {1, 8}) {
    const fs::path json = temp_dir() / ("parts_" + std::to_string(jobs) + ".json");
    const Outcome r = run("check softmax --cases 21 --device pocl:0 --jobs " + std::to_string(jobs) + " --json " + json.string());
    EXPECT_EQ(r.status, 0) << r.output;
    size_t lines = 0;
    for (size_t at = r.output.find("softmax                pocl:0    pass  21 cases"); at != std::string::npos;
         at = r.output.find("softmax                pocl:0", at + 1))
      ++lines;
    EXPECT_EQ(lines, 1u) << r.output;
    std::ifstream f(json);
    const auto j = nlohmann::json::parse(f);
    for (const auto& c : j["cases"])
      cases[jobs].insert(c["variant"].get<std::string>() + " " + c["problem"].get<std::string>() + " " + c["values"].get<std::string>());
  }
  EXPECT_EQ(cases[1].size(), 21u);
  EXPECT_EQ(cases[1], cases[8]);
}

TEST(CliIsolation, AChildThatHangsAfterItsLastCaseIsEndedAndItsResultsKept) {
  // A test hook keeps act's check process alive after it said it ended (as a driver's teardown that
  // hangs did once on an H200): the parent ends it a few seconds later, every case counted.
  const auto start = std::chrono::steady_clock::now();
  const Outcome r = run("check act --cases 6 --device pocl:0 --json " + (temp_dir() / "linger.json").string(), "PLUMBLINE_INJECT_LINGER=act");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("act                    pocl:0    pass  6 cases"), std::string::npos) << r.output;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 120);  // not the 600 s watchdog
}

// A problem too large for this machine is refused before anything is allocated, by the first limit it
// meets: the device's largest allocation (naming the tensor and its bytes) or the host's memory for the
// check (naming the bytes it needs and those available). Which comes first depends on the machine's
// memory (PoCL's largest allocation is a share of it), so either refusal is right; it must be one.
void expect_refused_for_size(const Outcome& r, const std::string& tensor_bytes) {
  EXPECT_EQ(r.status, 2) << r.output;
  const bool device =
      r.output.find(tensor_bytes) != std::string::npos && r.output.find("more than the largest allocation of pocl:0") != std::string::npos;
  const size_t host = r.output.find("checking it needs about ");
  const bool host_named = host != std::string::npos && r.output.find(" of host memory for the inputs, outputs", host) != std::string::npos &&
                          r.output.find(" are available", host) != std::string::npos;
  EXPECT_TRUE(device || host_named) << "neither refusal names the size (" << tensor_bytes << ", or the host memory):\n" << r.output;
  EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
}

TEST(CliIsolation, ProblemsTooLargeAreRefusedWithTheTensorAndItsBytes) {
  const Outcome conv = run("check conv2d --problem 'conv2d:n=65536,c=65536,h=65536,w=65536' --device pocl:0");
  EXPECT_EQ(conv.status, 2) << conv.output;
  EXPECT_NE(conv.output.find("a tensor of shape [65536,65536,65536,65536] has more than 2^63 elements"), std::string::npos) << conv.output;
  expect_refused_for_size(run("check matmul --problem 'matmul:m=2147483648,k=1,n=1' --device pocl:0"), "input 'a' needs 8589934592 bytes (8.00 GiB)");
  expect_refused_for_size(run("check matmul --problem 'matmul:m=50000,k=50000,n=50000' --device pocl:0"), "input 'a' needs 10000000000 bytes");
}

TEST(CliIsolation, ProblemsBeyondTheReferenceBudgetAreSampledAtTheirSize) {
  // 8.6e9 FLOPs: beyond the budget given, so checked on a sample of its outputs; the JSON says which.
  const fs::path json = temp_dir() / "sampled.json";
  const Outcome r =
      run("check matmul --problem 'matmul:m=1024,k=4096,n=1000,tb=1' --variant xgemm --reference-budget 1e8 --device pocl:0 --json " + json.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("xgemm: sampled 4100 of 1024000 elements of y (a fault in 0.112% of them is caught with probability 99%)"),
            std::string::npos)
      << r.output;
  std::ifstream f(json);
  const auto j = nlohmann::json::parse(f);
  ASSERT_FALSE(j["cases"].empty());
  for (const auto& c : j["cases"]) EXPECT_TRUE(c.contains("sampled")) << c.dump();
  // An operator that cannot be sampled is refused beyond the hard budget, with the reason.
  const Outcome big = run("check softmax --problem 'softmax:m=100000,n=100000' --device pocl:0");
  EXPECT_EQ(big.status, 2) << big.output;
}

// ---- shards for a CI matrix -------------------------------------------------------------------------

TEST(CliShards, TwoShardsMergedGiveTheVerdictsOfOneRun) {
  const fs::path a = temp_dir() / "shard_a", b = temp_dir() / "shard_b", whole = temp_dir() / "shard_whole", merged = temp_dir() / "merged";
  for (const auto& d : {a, b, whole, merged}) fs::remove_all(d);
  const std::string gate = "gate --op add --op softmax --no-bench --no-report --cases 10 --device pocl:0 --out ";
  EXPECT_EQ(run(gate + a.string() + " --shard 0/2").status, 0);
  EXPECT_EQ(run(gate + b.string(), "GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=2").status, 0);  // the environment's shard
  EXPECT_EQ(run(gate + whole.string()).status, 0);
  const Outcome m = run("report merge " + a.string() + " " + b.string() + " --out " + merged.string() + " --no-report");
  ASSERT_EQ(m.status, 0) << m.output;
  auto verdicts = [](const fs::path& dir, const char* file, const char* list, std::vector<std::string> keys) {
    std::ifstream f(dir / file);
    const auto j = nlohmann::json::parse(f);
    std::multiset<std::string> out;
    for (const auto& c : j[list]) {
      std::string k;
      for (const auto& key : keys) k += c[key].dump() + " ";
      out.insert(k);
    }
    return out;
  };
  const std::vector<std::string> case_keys{"op", "problem", "variant", "values", "seed", "verdict"};
  EXPECT_EQ(verdicts(merged, "check.json", "cases", case_keys), verdicts(whole, "check.json", "cases", case_keys));
  EXPECT_FALSE(verdicts(whole, "check.json", "cases", case_keys).empty());
  EXPECT_EQ(verdicts(merged, "gradcheck.json", "cases", {"op", "problem", "seed", "passed"}),
            verdicts(whole, "gradcheck.json", "cases", {"op", "problem", "seed", "passed"}));
  EXPECT_EQ(verdicts(merged, "rules.json", "rules", {"rule", "evaluator", "passed", "instances"}),
            verdicts(whole, "rules.json", "rules", {"rule", "evaluator", "passed", "instances"}));
  // Each shard did part of it.
  EXPECT_LT(verdicts(a, "check.json", "cases", case_keys).size(), verdicts(whole, "check.json", "cases", case_keys).size());
  const Outcome bad = run("check add --shard 2/2 --device pocl:0");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("shard '2/2': I must be in 0 .. N-1"), std::string::npos) << bad.output;
}

TEST(Cli, DevicesWithoutAnyDriverSaysSo) {
  const Outcome r = run("devices", "OCL_ICD_VENDORS=/nonexistent-vendors-dir");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no OpenCL platform found"), std::string::npos) << r.output;
  const Outcome ok = run("devices");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(ok.output.find(":0  "), std::string::npos) << ok.output;
}
#endif

TEST(Cli, RulesCheckRejectsThePlantedRulesWithRunnableRepros) {
  const std::string planted = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/planted/unsound.rules";
  const Outcome r = run("rules check " + planted + " --device none --rule commuted-matmul --rule silu-fusion-unguarded");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("SOME RULES FAIL"), std::string::npos) << r.output;
  // Each printed repro runs alone and fails the same way.
  size_t at = 0;
  int repros = 0;
  while ((at = r.output.find("repro: plumbline ", at)) != std::string::npos) {
    const size_t end = r.output.find('\n', at);
    const std::string cmd = r.output.substr(at + 17, end - at - 17);
    EXPECT_NE(cmd.find("--device none"), std::string::npos) << cmd;  // a reference failure needs no device
    const Outcome again = run(cmd);
    EXPECT_EQ(again.status, 1) << cmd << "\n" << again.output;
    ++repros;
    at = end;
  }
  EXPECT_EQ(repros, 2);
}

TEST(Cli, RulesCheckNamesTheLineOfAMalformedFile) {
  const auto file = temp_dir() / "bad.rules";
  std::ofstream(file) << "(rule ok\n  (vars (x real (m n)))\n  (lhs (transpose (transpose x)))\n  (rhs x)\n  (numerics exact))\n"
                         "(rule broken\n  (vars (x real (m n)))\n  (lhs (transpose (tranpose x)))\n  (rhs x)\n  (numerics exact))\n";
  const Outcome r = run("rules check " + file.string() + " --device none");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(file.string() + ":8: rule 'broken': unknown operator 'tranpose'"), std::string::npos) << r.output;
  const Outcome missing = run("rules check /nonexistent.rules");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("cannot read rules file '/nonexistent.rules'"), std::string::npos);
}

TEST(Cli, RulesOptimizeReportsTheSaturationAndTheCost) {
  const Outcome r = run("rules optimize conv_block");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("saturated"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("silu-fusion"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("% lower"), std::string::npos) << r.output;
}
