// Reduced precision (docs/verification.md, "Reduced precision"): the formats' rounding, problem lines
// with dtype, values drawn per format, the comparison's bounds per format, .npy float16 and bf16 words,
// and plans' dtypes lines. No OpenCL here (kernel_test, cli_test and the catalogue run the kernels).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "check/compare.hpp"
#include "check/error_models.hpp"
#include "check/function_check.hpp"
#include "core/dtype.hpp"
#include "core/npy.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "plans/plan.hpp"
#include "proptests/test_support.hpp"

using namespace plumbline;
using plumbline::test::error_of;

namespace {

// Every built-in operator takes a dtype; an operator added by another project (check/extend.hpp) may
// not. This one stands for such an operator.
const char* without_dtype() {
  static const bool added = [] {
    Registry::add(
        {"float32_only", "elementwise", "y = x", "", {{.name = "n", .kind = AttrKind::Int, .def = int64_t{1}, .min = 1}}, [](const Problem& p) {
           Signature s;
           s.inputs = {{"x", Shape{p.i("n")}}};
           s.outputs = {{"y", Shape{p.i("n")}}};
           return s;
         }});
    return true;
  }();
  (void)added;
  return "float32_only";
}

uint32_t bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

// The nearest value of the format by brute force: of the format's two neighbours of x (found by
// scanning every 16-bit word), the closer; on a tie the one with an even word. Independent of to_bits.
float nearest_by_search(DType d, float x) {
  float best = NAN;
  uint16_t best_word = 0;
  for (uint32_t w = 0; w < 65536; ++w) {
    const float v = from_bits(d, static_cast<uint16_t>(w));
    if (std::isnan(v)) continue;
    const double e = std::abs(static_cast<double>(v) - x), eb = std::abs(static_cast<double>(best) - x);
    if (std::isnan(best) || e < eb || (e == eb && (w & 1) == 0 && (best_word & 1) == 1)) best = v, best_word = static_cast<uint16_t>(w);
  }
  return best;
}

}  // namespace

TEST(Formats, EveryWordRoundTripsAndNaNStaysNaN) {
  for (DType d : {DType::F16, DType::BF16})
    for (uint32_t w = 0; w < 65536; ++w) {
      const float v = from_bits(d, static_cast<uint16_t>(w));
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(from_bits(d, to_bits(d, v))));
        continue;
      }
      ASSERT_EQ(to_bits(d, v), w) << to_string(d) << " word " << w;
      ASSERT_TRUE(representable(d, v));
    }
}

TEST(Formats, KnownValuesTiesToEvenAndOverflow) {
  EXPECT_EQ(to_bits(DType::F16, 1.0f), 0x3C00);
  EXPECT_EQ(to_bits(DType::F16, 65504.0f), 0x7BFF);
  EXPECT_EQ(to_bits(DType::F16, 65519.0f), 0x7BFF);  // below the threshold: the largest finite
  EXPECT_EQ(to_bits(DType::F16, 65520.0f), 0x7C00);  // from max + half an ulp: Inf
  EXPECT_EQ(to_bits(DType::F16, -1e6f), 0xFC00);
  EXPECT_EQ(to_bits(DType::F16, 0x1p-24f), 0x0001);        // the smallest subnormal
  EXPECT_EQ(to_bits(DType::F16, 0x1p-25f), 0x0000);        // half of it: a tie, to even (zero)
  EXPECT_EQ(to_bits(DType::F16, 0x1.8p-24f), 0x0002);      // 1.5 subnormal steps: a tie, to even (2)
  EXPECT_EQ(round_to(DType::F16, 1.0f + 0x1p-11f), 1.0f);  // halfway between 1 and 1 + 2^-10: even
  EXPECT_EQ(round_to(DType::F16, 1.0f + 0x3p-11f), 1.0f + 0x1p-9f);
  EXPECT_EQ(round_to(DType::BF16, 1.0f + 0x1p-8f), 1.0f);
  EXPECT_EQ(round_to(DType::BF16, 1.0f + 0x3p-8f), 1.0f + 0x1p-6f);
  EXPECT_EQ(to_bits(DType::BF16, 1.0f), 0x3F80);
  EXPECT_TRUE(std::isinf(round_to(DType::BF16, 3.4e38f)));  // beyond bf16's largest finite + half an ulp
  EXPECT_EQ(static_cast<double>(round_to(DType::BF16, static_cast<float>(max_finite(DType::BF16)))), max_finite(DType::BF16));
  EXPECT_TRUE(std::isnan(round_to(DType::BF16, std::nanf(""))));
  EXPECT_TRUE(std::isnan(from_bits(DType::BF16, to_bits(DType::BF16, std::bit_cast<float>(0x7F800001u)))));  // a NaN whose payload is low
  EXPECT_EQ(overflow_threshold(DType::F32), 3.4028235677973366e38);
}

RC_GTEST_PROP(Formats, RoundingIsToTheNearestValueTiesToEven, ()) {
  const DType d = *rc::gen::element(DType::F16, DType::BF16);
  // Values across the format's range, subnormals and ties included (a word's value +- a fraction of its step).
  const uint16_t w = *rc::gen::inRange<uint16_t>(0, 0x7BFF);
  const float lo = from_bits(d, w), hi = from_bits(d, static_cast<uint16_t>(w + 1));
  if (std::isinf(hi) || std::isnan(hi) || std::isnan(lo)) return;
  const int eighths = *rc::gen::inRange(0, 9);
  const float x = lo + (hi - lo) * static_cast<float>(eighths) / 8;
  RC_ASSERT(bits(round_to(d, x)) == bits(nearest_by_search(d, x)));
}

TEST(ProblemLine, DtypeIsLeftOutAtF32AndRoundTrips) {
  const Problem f32 = Problem::parse("matmul:m=3,k=4,n=5");
  EXPECT_EQ(f32.line(), "matmul:batch=0,m=3,k=4,n=5,ta=0,tb=0");
  const Problem b = Problem::parse("matmul:m=3,k=4,n=5,dtype=bf16");
  EXPECT_EQ(b.line(), "matmul:batch=0,m=3,k=4,n=5,ta=0,tb=0,dtype=bf16");
  EXPECT_EQ(Problem::parse(b.line()), b);
  EXPECT_EQ(dtype_of(b), DType::BF16);
  EXPECT_EQ(dtype_of(Problem::parse("cross_entropy:b=2,c=3")), DType::F32);  // dtype left out: float32
  EXPECT_EQ(signature_of(b).bytes(), 2.0 * (12 + 20 + 15));
  EXPECT_NE(error_of([] { Problem::parse("matmul:m=3,dtype=f8"); }).find("f8"), std::string::npos);
  EXPECT_NE(error_of([] { Problem::parse(std::string(without_dtype()) + ":n=2,dtype=f16"); }).find("has no attribute 'dtype'"), std::string::npos);
}

TEST(Signature, ClassIndicesStayFloat32InEveryFormatSoftLabelsFollowIt) {
  const Signature idx = signature_of(Problem::parse("cross_entropy_bwd:b=3,c=70000,dtype=f16"));
  EXPECT_EQ(idx.storage_of(idx.input("logits")), DType::F16);
  EXPECT_EQ(idx.storage_of(idx.input("target")), DType::F32);  // 69999 is no f16 value
  EXPECT_EQ(idx.storage_of(idx.output("d_logits")), DType::F16);
  EXPECT_EQ(idx.bytes(), 2.0 * (3 * 70000 + 1 + 3 * 70000) + 4.0 * 3);
  const Signature soft = signature_of(Problem::parse("cross_entropy:b=3,c=5,labels=soft,dtype=bf16"));
  EXPECT_EQ(soft.storage_of(soft.input("target")), DType::BF16);
  // Drawn index targets keep every class reachable: no rounding to the format.
  Rng rng(3);
  const TensorF t = make_input(idx.input("target"), Values::Uniform, rng, idx.storage_of(idx.input("target")));
  for (int64_t i = 0; i < t.numel(); ++i) EXPECT_EQ(t[i], std::floor(t[i]));
}

TEST(Values, EveryDrawnValueIsOneOfTheFormatsAndF16StaysInRange) {
  for (DType d : {DType::F16, DType::BF16})
    for (Values v : {Values::Integers, Values::Uniform, Values::Normal, Values::Edge}) {
      Rng rng(7);
      const TensorF t = make_input(TensorDecl{"x", Shape{4096}}, v, rng, d);
      bool inf = false, nan = false, subnormal = false;
      for (float x : t.data) {
        ASSERT_TRUE(representable(d, x)) << to_string(d) << " " << to_string(v) << ": " << x;
        inf |= std::isinf(x), nan |= std::isnan(x);
        subnormal |= x != 0 && std::abs(x) < min_normal(d);
        if (d == DType::F16 && v == Values::Normal) EXPECT_LT(std::abs(x), 256.0f);  // products stay below 65504
      }
      if (v == Values::Edge) EXPECT_TRUE(inf && nan && subnormal) << to_string(d);
    }
  // Drawing in float32 is what it always was: the same seed gives the same values as before the formats.
  Rng a(3), b(3);
  EXPECT_EQ(make_input(TensorDecl{"x", Shape{64}}, Values::Normal, a).data,
            make_input(TensorDecl{"x", Shape{64}}, Values::Normal, b, DType::F32).data);
}

TEST(Compare, OneRoundingToTheFormatPassesTwoOrATruncationFail) {
  // y = a + b in bf16 with uniform inputs: the correctly rounded sum passes; the float sum truncated
  // to bf16 (what `(ushort)(bits >> 16)` does) and the sum rounded twice (through f16 first) fail.
  const Problem p = Problem::parse("add:n=4096,dtype=bf16");
  const CaseInputs in = draw_inputs(signature_of(p), Values::Uniform, 11);
  TensorD ref(Shape{4096});
  TensorF right(Shape{4096}), truncated(Shape{4096});
  for (int64_t i = 0; i < 4096; ++i) {
    ref[i] = in.d[0][i] + in.d[1][i];
    const float f = in.f[0][i] + in.f[1][i];
    right[i] = round_to(DType::BF16, f);
    truncated[i] = std::bit_cast<float>(bits(f) & 0xFFFF0000u);
  }
  const std::vector<ErrorModel> m = error_models(p, in.d, {ref}, false);
  ASSERT_EQ(m[0].storage, DType::BF16);
  const Comparison ok = compare("y", right, ref, m[0]);
  EXPECT_TRUE(ok.passed) << ok.message;
  EXPECT_LE(ok.worst_ratio, 1.0);
  EXPECT_GT(ok.worst_ratio, 0.5);  // the bound is the one rounding, not more
  EXPECT_FALSE(compare("y", truncated, ref, m[0]).passed);
}

TEST(Compare, ExactModeWantsTheReferenceRoundedToTheFormat) {
  ErrorModel exact;
  exact.exact = true;
  exact.storage = DType::BF16;
  TensorD ref(Shape{2});
  ref[0] = 257;  // not a bf16 value: 256 and 258 are its neighbours, 256 the even one
  ref[1] = 3;
  TensorF got(Shape{2});
  got[0] = 256, got[1] = 3;
  EXPECT_TRUE(compare("y", got, ref, exact).passed);
  got[0] = 258;
  const Comparison c = compare("y", got, ref, exact);
  EXPECT_FALSE(c.passed);
  EXPECT_NE(c.message.find("rounded to bf16, 256"), std::string::npos) << c.message;
}

// Round half up: what `(u + 0x8000) >> 16` does to a float's bits, and its f16 equivalent, on the float
// value: the nearest value of the format, ties away from zero.
float round_half_up(DType d, float x) {
  const float lo = round_to(d, x), other = round_to(d, 2 * x - lo);  // the two neighbours at a tie
  return std::abs(x - lo) == std::abs(other - x) && std::abs(other) > std::abs(lo) ? other : lo;
}

TEST(Values, ExactModeTiesInTheFormatSoAHalfUpRoundingFailsAndEveryInputStaysExact) {
  for (const char* line :
       {"add:n=512,dtype=bf16", "add:n=512,dtype=f16", "mul:n=512,dtype=bf16", "mul:n=512,dtype=f16", "bias_add:m=16,n=32,dtype=bf16"}) {
    const Problem p = Problem::parse(line);
    const Signature sig = signature_of(p);
    ASSERT_TRUE(sig.exact_ties) << line;
    const CaseInputs in = draw_inputs(sig, Values::Integers, 5);
    const DType d = dtype_of(p);
    const bool mul = p.op() == "mul";
    const int64_t n = in.f[0].numel(), cols = in.f[1].numel();
    TensorD ref(in.f[0].shape);
    TensorF even(ref.shape), half_up(ref.shape);
    int ties = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double a = in.d[0][i], b = in.d[1][i % cols];
      ASSERT_EQ(a, std::floor(a)) << line;
      ref[i] = mul ? a * b : a + b;
      ASSERT_LT(std::abs(ref[i]), 16777216.0) << line;  // exact in float32
      even[i] = round_to(d, static_cast<float>(ref[i]));
      half_up[i] = round_half_up(d, static_cast<float>(ref[i]));
      ties += even[i] != half_up[i];
    }
    EXPECT_GE(ties, 4) << line;  // a quarter of the inputs at the precision edge: dozens in 512
    const std::vector<ErrorModel> m = error_models(p, in.d, {ref}, true);
    ASSERT_TRUE(m[0].exact) << line;
    EXPECT_TRUE(compare("y", even, ref, m[0]).passed) << line;
    EXPECT_FALSE(compare("y", half_up, ref, m[0]).passed) << line;
  }
  // Float32 draws are unchanged (no tie makers), and so are operators with longer sums.
  EXPECT_FALSE(signature_of(Problem::parse("matmul:m=2,k=3,n=4,dtype=bf16")).exact_ties);
  Rng a(9), b(9);
  EXPECT_EQ(make_input(TensorDecl{"x", Shape{256}}, Values::Integers, a, DType::F32, true).data,
            make_input(TensorDecl{"x", Shape{256}}, Values::Integers, b, DType::F32).data);
}

TEST(Compare, TheFormatsRangeDecidesWhereInfIsRight) {
  ErrorModel m;
  m.k = 1;
  m.storage = DType::F16;
  m.mag = TensorD(Shape{3});
  TensorD ref(Shape{3});
  ref[0] = 70000, ref[1] = 60000, ref[2] = -1e5;  // beyond, inside, beyond f16's range
  for (int i = 0; i < 3; ++i) m.mag[i] = std::abs(ref[i]);
  TensorF got(Shape{3});
  got[0] = INFINITY, got[1] = 60000, got[2] = -INFINITY;
  EXPECT_TRUE(compare("y", got, ref, m).passed);
  got[0] = 65504;  // finite where the true value rounds to Inf
  EXPECT_FALSE(compare("y", got, ref, m).passed);
  // Both printed numbers finite: the message says what the format makes of the reference.
  EXPECT_NE(compare("y", got, ref, m).message.find("reference 70000, inf in f16 (its largest finite value is 65504) (non-finite class differs)"),
            std::string::npos)
      << compare("y", got, ref, m).message;
  got[0] = INFINITY, got[1] = INFINITY;  // Inf where 60000 is finite in f16
  EXPECT_FALSE(compare("y", got, ref, m).passed);
}

TEST(Npy, Float16RoundTripsAndBf16WordsReadOnlyForBf16) {
  const auto dir = test::temp_dir("dtype_test");
  TensorF t(Shape{2, 3});
  const float values[] = {0.0f, -1.5f, 65504.0f, 0x1p-24f, INFINITY, 0.333251953125f};
  for (int i = 0; i < 6; ++i) t[i] = values[i];
  write_npy_f16((dir / "h.npy").string(), t);
  const TensorF back = read_npy<float>((dir / "h.npy").string());
  EXPECT_EQ(back.shape, t.shape);
  EXPECT_EQ(back.data, t.data);
  // bf16 words: '<u2' holding 0x3F80 (1.0) and 0xC000 (-2.0), written by hand as NumPy would.
  std::string header = "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  {
    std::ofstream f(dir / "w.npy", std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    const uint16_t len = static_cast<uint16_t>(header.size());
    f.write(reinterpret_cast<const char*>(&len), 2);
    f << header;
    const uint16_t words[2] = {0x3F80, 0xC000};
    f.write(reinterpret_cast<const char*>(words), 4);
  }
  EXPECT_EQ(read_npy<double>((dir / "w.npy").string(), DType::BF16).data, (std::vector<double>{1.0, -2.0}));
  EXPECT_NE(error_of([&] { read_npy<double>((dir / "w.npy").string()); }).find("only as the bf16 words"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Plans, DtypesLinesSayWhichFormatsAVariantServes) {
  const auto v = plans::parse_plan("op matmul\nvariant h\n  dtypes f16 bf16\n  step k\n    args a, b, y\n    global n\n", "t.plan");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(plans::dtypes_of(v[0]), (std::vector<std::string>{"f16", "bf16"}));
  EXPECT_FALSE(plans::applies(v[0], Problem::parse("matmul:m=2,k=2,n=2")));
  EXPECT_TRUE(plans::applies(v[0], Problem::parse("matmul:m=2,k=2,n=2,dtype=bf16")));
  // Steering brings a float32 problem into the variant's first format.
  EXPECT_EQ(dtype_of(plans::steer(v[0], Problem::parse("matmul:m=2,k=2,n=2")).value()), DType::F16);
  auto plan_error = [](const std::string& text) { return error_of([&] { plans::parse_plan(text, "t.plan"); }); };
  EXPECT_EQ(plan_error("op matmul\nvariant h\n  dtypes f8\n  step k\n    args a\n    global 1\n"),
            "t.plan:3: unknown dtype 'f8' (choose f32, f16 or bf16)");
  EXPECT_EQ(plan_error("op " + std::string(without_dtype()) + "\nvariant h\n  dtypes f16\n  step k\n    args x\n    global 1\n"),
            "t.plan:3: " + std::string(without_dtype()) +
                " has no dtype attribute: its tensors are float32 (docs/operators.md lists the operators that take f16 and bf16)");
  EXPECT_EQ(plan_error("op matmul\nvariant h\n  step k\n    args a\n    global 1\n  dtypes f16\n"),
            "t.plan:6: 'dtypes' belongs to the variant: put it before the first 'step'");
}
