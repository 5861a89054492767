// core/: problem lines, the registry, value distributions, .npy files.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "check/generators.hpp"
#include "check/shrink.hpp"
#include "core/error.hpp"
#include "proptests/test_support.hpp"
#include "core/npy.hpp"
#include "core/parallel.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

using namespace plumbline;
using plumbline::test::error_of;

namespace {

std::filesystem::path temp_file(const std::string& name) { return test::temp_dir("core_test") / name; }

}  // namespace

// ---- problem lines -------------------------------------------------------------------------------

RC_GTEST_PROP(ProblemLine, EveryGeneratedProblemRoundTrips, ()) {
  const auto names = Registry::get().names();
  const std::string op = *rc::gen::elementOf(names);
  const Problem p = *problem_gen(op, 1e7);
  const std::string line = p.line();
  const Problem q = Problem::parse(line);
  RC_ASSERT(q == p);
  RC_ASSERT(q.line() == line);
}

TEST(Generators, ShrinkToTheDefaultProblem) {
  // A case that always fails shrinks all the way: to the operator's defaults, the smallest problem,
  // except the named attributes sample_problem sweeps (case 1 holds each one's first choice).
  for (const auto& op : Registry::get().names())
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const auto big = sample_problem(op, 1e7, seed, 1, 1);
      const Problem small = shrink_failure(big, [](const Problem&) { return true; });
      Problem expected = Problem::make(op);
      for (const auto& a : Registry::get().find(op).attrs)
        if (a.kind == AttrKind::Enum && a.choices.size() > 1) expected = expected.with(a.name, a.choices[0]);
      EXPECT_EQ(small.line(), expected.line()) << "shrunk from " << big.value().line();
    }
}

TEST(Generators, ShrinkingStopsAtItsTimeLimitWithTheSmallestFailureFoundSoFar) {
  // The first candidate fails and takes longer than the whole limit: the shrink stops after it, with
  // that candidate (smaller than the problem it began with, far from the defaults it would reach).
  // However slow the machine, the candidate outlasts the limit, so exactly one is tried.
  // (A candidate that prints as the problem itself is passed over at once.)
  const auto big = sample_problem("matmul", 1e7, 3, 1, 1);
  const std::string start = big.value().line();
  int tried = 0;
  const Problem small = shrink_failure(
      big,
      [&](const Problem& q) {
        if (q.line() == start) return false;
        ++tried;
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        return true;
      },
      500, 1.0);
  EXPECT_EQ(tried, 1);
  std::string first;  // the first candidate that differs
  for (auto candidates = big.shrinks(); first.empty();)
    if (const auto c = candidates.next(); c->value().line() != start) first = c->value().line();
  EXPECT_EQ(small.line(), first);
  EXPECT_NE(small.line(), shrink_failure(big, [](const Problem&) { return true; }).line());
}

TEST(Generators, NamedAttributesSweepTheirChoicesAcrossCases) {
  // Each choice is held for four cases (one per value distribution), in order.
  const auto& kinds = activation_kinds();
  for (int i = 0; i < 4 * static_cast<int>(kinds.size()); ++i)
    EXPECT_EQ(sample_problem("act", 1e5, 3, i, 100).value().s("act"), kinds[static_cast<size_t>(i / 4)]) << "case " << i;
}

TEST(ProblemLine, CanonicalFormListsEveryAttributeInOrder) {
  const Problem p = Problem::parse("conv2d_bwd_data:w=7,n=2,c=3,h=7,k=4,r=3,s=3,sh=2,sw=2,ph=1,pw=1");
  EXPECT_EQ(p.line(), "conv2d_bwd_data:n=2,c=3,h=7,w=7,k=4,r=3,s=3,sh=2,sw=2,ph=1,pw=1,dh=1,dw=1,g=1,bias=0");
  EXPECT_EQ(Problem::parse(p.line()).line(), p.line());
  EXPECT_EQ(Problem::parse("softmax").line(), "softmax:m=1,n=1");
  EXPECT_EQ(Problem::parse("  layer_norm:m=2, n=3 ,eps=1e-06 ").line(), "layer_norm:m=2,n=3,eps=1e-06");
  EXPECT_DOUBLE_EQ(Problem::parse("group_norm:c=4,g=2,eps=0.001").f("eps"), 0.001);
}

TEST(ProblemLine, MalformedLinesNameTheProblem) {
  EXPECT_NE(error_of([] { Problem::parse(""); }).find("empty problem line"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("convv2d:n=1"); }).find("unknown operator 'convv2d'"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:n=1,zz=3"); }).find("conv2d has no attribute 'zz'"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:n=x"); }).find("'n' must be an integer, got 'x'"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:n=2.5"); }).find("must be an integer"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:n=0"); }).find("'n' must be >= 1"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:n2"); }).find("not of the form name=value"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:n=1,,c=2"); }).find("empty field"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:n=1,n=2"); }).find("given twice"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("act:act=swish"); }).find("must be one of {none, relu"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("layer_norm:eps=abc"); }).find("must be a finite number"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("layer_norm:eps=inf"); }).find("must be a finite number"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("matmul:ta=2"); }).find("'ta' must be 0 or 1"), std::string::npos);
}

TEST(ProblemLine, ImpossibleShapesAreRejected) {
  EXPECT_NE(error_of([] { Problem::parse("group_norm:n=1,c=6,h=2,w=2,g=4"); }).find("c=6 not divisible by groups g=4"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:c=3,k=4,g=2"); }).find("not divisible by groups"), std::string::npos);
  EXPECT_NE(
      error_of([] { Problem::parse("conv2d:h=3,w=3,r=5,s=3"); }).find("dilated kernel extent along height (5) is larger than the padded input (3)"),
      std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("conv2d:h=5,w=5,r=3,s=3,dh=3"); }).find("extent along height (7)"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("max_pool2d:h=4,w=4,kh=2,kw=2,ph=2"); }).find("exceeds half the window"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse("gemm_bias_act:bshared=1"); }).find("bshared=1 needs a batch"), std::string::npos);
  // The error starts with the problem line, so the user sees what was asked.
  EXPECT_EQ(error_of([] { Problem::parse("group_norm:c=6,g=4"); }).rfind("group_norm:n=1,c=6", 0), 0u);
}

TEST(ProblemLine, ShapesFollowTheDesign) {
  const Signature s = signature_of(Problem::parse("conv2d:n=2,c=3,h=7,w=7,k=4,r=3,s=3,sh=2,sw=2,ph=1,pw=1"));
  EXPECT_EQ(s.output("y").shape, (Shape{2, 4, 4, 4}));  // floor((7 + 2 - 2 - 1) / 2) + 1 = 4
  EXPECT_EQ(s.input("w").shape, (Shape{4, 3, 3, 3}));
  const Signature d = signature_of(Problem::parse("conv2d:n=1,c=1,h=10,w=9,k=1,r=3,s=3,dh=2,dw=3"));
  EXPECT_EQ(d.output("y").shape, (Shape{1, 1, 6, 3}));
  const Signature g = signature_of(Problem::parse("gemm_bias_act_bwd:batch=3,m=2,k=5,n=4,bshared=1"));
  EXPECT_EQ(g.output("d_b").shape, (Shape{5, 4}));
  EXPECT_EQ(g.output("d_a").shape, (Shape{3, 2, 5}));
  // The work a backward must do: two GEMMs, and the pre-activation's recompute only where act needs it.
  const double forward = signature_of(Problem::parse("gemm_bias_act:m=64,k=32,n=16")).flops;
  EXPECT_EQ(signature_of(Problem::parse("gemm_bias_act_bwd:m=64,k=32,n=16")).flops, 2 * forward);
  EXPECT_EQ(signature_of(Problem::parse("gemm_bias_act_bwd:m=64,k=32,n=16,act=relu")).flops,
            3 * signature_of(Problem::parse("gemm_bias_act:m=64,k=32,n=16,act=relu")).flops);
  const Signature m = signature_of(Problem::parse("matmul:batch=2,m=3,k=5,n=4,ta=1,tb=1"));
  EXPECT_EQ(m.input("a").shape, (Shape{2, 5, 3}));
  EXPECT_EQ(m.input("b").shape, (Shape{2, 4, 5}));
  EXPECT_EQ(signature_of(Problem::parse("sum:m=3,n=4")).output("y").shape, Shape{});
  EXPECT_EQ(signature_of(Problem::parse("cross_entropy:b=3,c=5")).input("target").domain, Domain::ClassIndex);
}

// ---- registry: every operator is complete in every layer -----------------------------------------

TEST(Registry, EveryOperatorHasReferenceGeneratorAndConsistentBackward) {
  ASSERT_GE(Registry::get().all().size(), 33u);
  for (const auto& spec : Registry::get().all()) {
    SCOPED_TRACE(spec.name);
    EXPECT_NE(find_reference(spec.name), nullptr) << "no reference implementation";
    EXPECT_TRUE(has_problem_gen(spec.name)) << "no problem generator";
    const Problem p = Problem::make(spec.name);
    const Signature s = signature_of(p);
    EXPECT_FALSE(s.outputs.empty());
    if (spec.forward.empty()) continue;
    // A backward's outputs are gradients of its forward's inputs; its inputs come from the forward.
    const Signature f = signature_of(p.as(spec.forward));
    for (const auto& out : s.outputs) {
      bool found = false;
      for (const auto& in : f.inputs) found |= grad_name(in.name) == out.name && in.shape == out.shape;
      EXPECT_TRUE(found) << out.name << " is not the gradient of an input of " << spec.forward;
    }
  }
  EXPECT_NE(error_of([] { Registry::get().find("nope"); }).find("known operators: matmul"), std::string::npos);
}

// ---- value distributions -------------------------------------------------------------------------

TEST(Values, EdgeDistributionReachesNonFiniteAndSubnormal) {
  Rng rng(7);
  TensorF t(Shape{4096});
  fill(t, Values::Edge, rng);
  int nan = 0, pinf = 0, ninf = 0, sub = 0, negzero = 0;
  for (float v : t.data) {
    nan += std::isnan(v);
    pinf += std::isinf(v) && v > 0;
    ninf += std::isinf(v) && v < 0;
    sub += std::fpclassify(v) == FP_SUBNORMAL;
    negzero += v == 0 && std::signbit(v);
  }
  EXPECT_GT(nan, 0);
  EXPECT_GT(pinf, 0);
  EXPECT_GT(ninf, 0);
  EXPECT_GT(sub, 0);
  EXPECT_GT(negzero, 0);
}

// Sparse: 1-4 specials a tensor (so that a long reduction's outputs stay mostly finite), Inf among
// them over a few draws, and the same from the parallel drawing of large tensors.
TEST(Values, SparseDistributionHoldsAFewSpecials) {
  Rng rng(7);
  int infs = 0;
  for (int draw = 0; draw < 20; ++draw) {
    TensorF t(Shape{4096});
    fill(t, Values::Sparse, rng);
    int special = 0;
    for (float v : t.data) {
      special += !std::isfinite(v) || v == 0 || std::abs(v) > 1e20f || std::fpclassify(v) == FP_SUBNORMAL;
      infs += std::isinf(v);
    }
    EXPECT_LE(special, 4);
  }
  EXPECT_GT(infs, 5);
  const TensorF big = make_input_parallel({"x", Shape{3 << 20}, Domain::Real}, Values::Sparse, 5, DType::F32, false);
  int64_t nonfinite = 0;
  for (float v : big.data) nonfinite += !std::isfinite(v);
  EXPECT_LE(nonfinite, 4);
  EXPECT_EQ(values_from_string("sparse"), Values::Sparse);
}

TEST(Values, SameSeedSameValuesAndDomainsRespected) {
  Rng a(11), b(11);
  TensorF x(Shape{100}), y(Shape{100});
  fill(x, Values::Normal, a);
  fill(y, Values::Normal, b);
  EXPECT_EQ(x.data, y.data);
  Rng r(3);
  TensorF ints(Shape{1000});
  fill(ints, Values::Integers, r);
  for (float v : ints.data) EXPECT_TRUE(v == std::round(v) && std::abs(v) <= 3);
  const TensorF idx = make_input({"target", Shape{50}, Domain::ClassIndex, 7}, Values::Edge, r);
  for (float v : idx.data) EXPECT_TRUE(v >= 0 && v < 7 && v == std::round(v));
  const TensorF soft = make_input({"target", Shape{5, 9}, Domain::Distribution}, Values::Edge, r);
  for (int i = 0; i < 5; ++i) {
    double s = 0;
    for (int j = 0; j < 9; ++j) s += soft[i * 9 + j];
    EXPECT_NEAR(s, 1.0, 1e-6);
  }
  EXPECT_NE(error_of([] { values_from_string("gaussian"); }).find("unknown value distribution"), std::string::npos);
}

// ---- .npy ----------------------------------------------------------------------------------------

TEST(Npy, RoundTripFloat32AndFloat64BitExact) {
  Rng rng(5);
  TensorF f(Shape{3, 4, 5});
  fill(f, Values::Edge, rng);
  write_npy(temp_file("f.npy"), f);
  const TensorF g = read_npy<float>(temp_file("f.npy"));
  EXPECT_EQ(g.shape, f.shape);
  EXPECT_EQ(0, std::memcmp(f.data.data(), g.data.data(), f.data.size() * 4));  // NaN payloads and -0 too

  TensorD d(Shape{7});
  for (int i = 0; i < 7; ++i) d[i] = std::ldexp(1.0 + i / 3.0, -1000 + 300 * i);
  write_npy(temp_file("d.npy"), d);
  EXPECT_EQ(read_npy<double>(temp_file("d.npy")).data, d.data);

  TensorD scalar(Shape{});
  scalar[0] = 2.5;
  write_npy(temp_file("s.npy"), scalar);
  EXPECT_EQ(read_npy<double>(temp_file("s.npy")).shape, Shape{});
  // float32 files read as double keep their values exactly.
  EXPECT_EQ(read_npy<double>(temp_file("f.npy")).data[3], static_cast<double>(f.data[3]));
}

TEST(Npy, HeaderIsNumpyCompatible) {
  TensorF t(Shape{2, 3});
  write_npy(temp_file("h.npy"), t);
  std::ifstream f(temp_file("h.npy"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  const size_t header_end = bytes.find('\n');
  EXPECT_EQ((header_end + 1) % 64, 0u);  // data aligned to 64 bytes, as NumPy writes it
  EXPECT_NE(bytes.find("'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"), std::string::npos);
  EXPECT_EQ(bytes.size(), header_end + 1 + 24);
}

TEST(Npy, BadFilesGetClearErrors) {
  auto write_raw = [](const std::string& name, const std::string& header, size_t data_bytes) {
    std::ofstream f(temp_file(name), std::ios::binary);
    std::string h = header;
    h.append(63 - (10 + h.size()) % 64, ' ');
    h += '\n';
    const uint16_t len = static_cast<uint16_t>(h.size());
    f.write("\x93NUMPY\x01\x00", 8);
    f.write(reinterpret_cast<const char*>(&len), 2);
    f << h << std::string(data_bytes, '\0');
    return temp_file(name).string();
  };
  const auto i32 = write_raw("i32.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 8);
  EXPECT_NE(error_of([&] { read_npy<float>(i32); }).find("dtype '<i4' is not supported"), std::string::npos);
  const auto big = write_raw("big.npy", "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8);
  EXPECT_NE(error_of([&] { read_npy<float>(big); }).find("dtype '>f4'"), std::string::npos);
  const auto fortran = write_raw("fo.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16);
  EXPECT_NE(error_of([&] { read_npy<float>(fortran); }).find("Fortran-order"), std::string::npos);
  const auto shortd = write_raw("short.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", 40);
  EXPECT_NE(error_of([&] { read_npy<double>(shortd); }).find("truncated data: shape [3,2] needs 48 bytes, file holds 40"), std::string::npos);
  {
    std::ofstream f(temp_file("text.npy"));
    f << "hello";
  }
  EXPECT_NE(error_of([&] { read_npy<float>(temp_file("text.npy")); }).find("not a .npy file"), std::string::npos);
  EXPECT_NE(error_of([&] { read_npy<float>(temp_file("missing.npy")); }).find("cannot open"), std::string::npos);
}

// ---- generators reach the awkward shapes of DESIGN.md --------------------------------------------

TEST(Generators, ReachTheAwkwardShapes) {
  std::set<int64_t> spatial;
  bool stride2 = false, stride3 = false, asym_pad = false, dilated = false, depthwise = false, grouped = false;
  bool big_kernel = false, batch = false;
  for (int i = 0; i < 3000; ++i) {
    const Problem p = sample_problem("conv2d", 1e8, 11, i, 3000).value();
    spatial.insert(p.i("h"));
    spatial.insert(p.i("w"));
    stride2 |= p.i("sh") == 2;
    stride3 |= p.i("sw") == 3;
    asym_pad |= p.i("ph") != p.i("pw");
    dilated |= p.i("dh") > 1 && p.i("dw") > 1;
    depthwise |= p.i("g") > 1 && p.i("g") == p.i("c") && p.i("g") == p.i("k");
    grouped |= p.i("g") > 1 && p.i("c") > p.i("g");
    big_kernel |= p.i("r") > 7 && p.i("s") > 7;
    batch |= p.i("n") > 1;
  }
  for (int64_t v : {1, 2, 3, 5, 7, 11, 13, 15, 16, 17, 31, 32, 33, 41, 47, 55, 61, 63, 64, 65})
    EXPECT_TRUE(spatial.count(v)) << "conv spatial size " << v << " never generated";
  EXPECT_TRUE(stride2 && stride3 && asym_pad && dilated && depthwise && grouped && big_kernel && batch);

  bool k_not_mult4 = false, tall = false, wide = false, batched = false, trans = false, boundary = false;
  for (int i = 0; i < 2000; ++i) {
    const Problem p = sample_problem("matmul", 1e8, 5, i, 2000).value();
    k_not_mult4 |= p.i("k") % 4 != 0 && p.i("k") > 4;
    tall |= p.i("m") >= 8 * p.i("n");
    wide |= p.i("n") >= 8 * p.i("m");
    batched |= p.i("batch") > 1;
    trans |= p.i("ta") && p.i("tb");
    boundary |= p.i("m") == 129 || p.i("n") == 127;
  }
  EXPECT_TRUE(k_not_mult4 && tall && wide && batched && trans && boundary);

  std::set<std::string> acts;
  for (int i = 0; i < 500; ++i) acts.insert(sample_problem("gemm_bias_act", 1e8, 3, i, 500).value().s("act"));
  EXPECT_EQ(acts.size(), activation_kinds().size());
}

// core/parallel.hpp: every piece runs once; a failing run rethrows the lowest-numbered piece's
// exception (a serial loop's first), whichever thread threw first; nested calls run in the caller.
TEST(Parallel, EveryPieceOnceAndTheFirstPiecesException) {
  std::vector<int> runs(1000, 0);
  parallel_for(1000, [&](int64_t c) {
    ++runs[static_cast<size_t>(c)];
    parallel_for(3, [&](int64_t) {});  // nested: serial, no threads of threads
  });
  for (int r : runs) ASSERT_EQ(r, 1);
  for (int round = 0; round < 20; ++round) {
    try {
      parallel_for(64, [&](int64_t c) {
        if (c == 40) throw Error("piece 40");
        if (c == 7) {
          std::this_thread::sleep_for(std::chrono::milliseconds(round % 3));  // 40 may throw first
          throw Error("piece 7");
        }
      });
      FAIL() << "no exception";
    } catch (const Error& e) {
      EXPECT_STREQ(e.what(), "piece 7");
    }
  }
  const Chunks ch = chunks_of(1000003, 1000);
  int64_t covered = 0;
  for (int64_t c = 0; c < ch.count; ++c) {
    ASSERT_EQ(ch.begin(c), c == 0 ? 0 : ch.end(c - 1));
    covered += ch.end(c) - ch.begin(c);
  }
  EXPECT_EQ(covered, 1000003);
  EXPECT_EQ(chunks_of(10, 1000).count, 1);
}
