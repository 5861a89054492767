#pragma once
// Launch plans as data (docs/kernel-abi.md). A plan file holds variants; a variant says how to run one
// operator: which .cl file, which build defines, for which problems (a condition), which scratch
// buffers, and its steps. A step is one kernel launch: its entry, its parameters in the kernel's own
// order, and its global and local sizes as expressions over the operator's attributes and the defines.
//
//   op matmul
//   variant tiled
//     define TS=32 WPT=4
//     when k >= 1
//     step rb_gemm
//       args m, n, k, batch, ta, tb, a, b, y
//       global cdiv(n,TS)*(TS/WPT), cdiv(m,TS)*(TS/WPT), max(batch,1)
//       local TS/WPT, TS/WPT, 1
//
// Parsing checks every name against the operator (tensors, attributes), the variant's defines and
// scratch buffers, and reports FILE:LINE with what is wrong.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/problem.hpp"
#include "plans/expr.hpp"

namespace plumbline::plans {

// Where a plan's line came from, for messages: "gemm.plan:12".
struct Where {
  std::string file;
  int line = 0;
  std::string str() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

// One kernel parameter as the plan gives it.
struct Arg {
  enum class Kind {
    Tensor,         // an input or output of the operator
    Scratch,        // a scratch buffer of the variant
    Value,          // an expression: an attribute, a define, an integer or float literal (a scalar parameter)
    Local,          // local(BYTES): a __local buffer of that many bytes
    TensorOrValue,  // a name that is both a tensor and an attribute (conv2d's w, bias): the kernel's
                    // parameter decides (a pointer takes the tensor, a scalar the attribute)
  } kind = Kind::Value;
  std::string name;  // Tensor, Scratch, TensorOrValue
  Expr expr;         // Value, Local (bytes), TensorOrValue (the attribute)
  std::string text;  // as written
};

// A hand-off between the work-groups of one launch that a simulator cannot follow (opencl/oclgrind.hpp):
// the last work-group to take an integer atomic count reads what the others wrote to BUFFER. Oclgrind
// does not model the count's ordering and reports each such read as a global-memory race; the plan
// declares it, with the reason, and only those reports are set aside (`handoff BUFFER REASON`): races
// on that buffer, in that step's kernel, between two work-groups.
struct Handoff {
  std::string buffer;  // a tensor or scratch buffer of the variant (global memory; never local memory)
  std::string reason;
  Where where;
};

struct Step {
  std::string entry;
  std::vector<Arg> args;
  std::vector<Expr> global, local;  // local empty: the driver picks the work-group size
  Expr when;                        // empty: always
  // The step's own build defines over the variant's (a `define` line after `step`): its kernel comes
  // from a program of its own (Variant::for_step). They change the program, not the plan's expressions.
  std::vector<std::pair<std::string, std::string>> defines;
  Where where;                       // the 'step' line
  std::map<std::string, int> lines;  // the line of its 'args', 'global', 'local' and 'when'
  bool has_args = false;
  std::vector<Handoff> handoffs;  // its `handoff` lines
};

// A named expression of a variant (`let SPLITS = max(1, ...)`): usable in every expression after it.
struct Let {
  std::string name;
  Expr value;
  Where where;
};

struct Scratch {
  std::string name;
  Expr floats;  // its size in floats (counters: in 32-bit words; stored: in values of the storage format)
  Where where;
  // `counters NAME COUNT`: 32-bit unsigned integers that hold zero when the first step starts and
  // that the steps must leave at zero (checked): one launch can then find its last work-group by an
  // integer atomic (docs/kernel-abi.md). Plain scratch starts as poison.
  bool counters = false;
  // `stored NAME COUNT`: COUNT values in the problem's storage format (half* for f16, ushort* for
  // bf16, float* for f32), for an intermediate that a step reads as a 16-bit operand. Its size in
  // floats is the bytes rounded up to whole floats.
  bool stored = false;
};

// A shape class of a tunable variant: the tuning database holds one set of defines per device and
// class (opencl/tuning/).
struct ShapeClass {
  std::string name;
  Expr when;  // empty: every problem (the last class)
};

struct Variant {
  std::string op, name;
  std::string file;  // the .cl: a name under the kernel folder, or an absolute path
  // Files compiled before `file`, in order, as one program (`file A B C`: a library's kernels split
  // over files, as its host code concatenates them).
  std::vector<std::string> prelude;
  // Type names of the kernels' parameters the plan declares (`type real_arg float`), where the
  // program's own typedefs do not say (opencl/type_names.hpp).
  std::map<std::string, std::string> types;
  std::vector<std::pair<std::string, std::string>> defines;  // in the plan's order
  Expr when;                                                 // empty: every problem. The problems the variant computes right.
  // Where it is the one to choose (`prefer`: empty for all it serves): a condition of speed, not of
  // correctness (m >= 2048: enough rows for its work-groups). A launch takes the first variant that
  // serves and prefers a problem; check, and the sanitizer pass, draw from every problem it serves.
  Expr prefer;
  int prefer_line = 0;
  std::vector<Let> lets;  // in the plan's order, each seeing those before it
  std::vector<Scratch> scratch;
  std::vector<Step> steps;
  Where where;  // the 'variant' line
  int when_line = 0;
  // Tuning (plumbline tune): the values each tunable define may take, the constraints every
  // combination must meet (expressions over the defines), and the shape classes tuned apart.
  std::vector<std::pair<std::string, std::vector<std::string>>> tunables;
  std::vector<Expr> requires_;
  std::vector<ShapeClass> classes;
  // The storage formats its kernels take (`dtypes f32 f16 bf16`; core/dtype.hpp): empty is f32 alone.
  // The build defines DTYPE_F32, DTYPE_F16 or DTYPE_BF16 for the problem's.
  std::vector<std::string> dtypes;
  // The device types it is shaped for (`devices cpu`: "cpu", "gpu", "accelerator"), empty for all. On a
  // device of another type it is passed over, as an `off` tuning entry passes a variant over: the next
  // variant that serves the problem runs (docs/kernel-abi.md).
  std::vector<std::string> devices;
  // The device features its kernels need to build at all (`needs nvidia_sm80`: kDeviceFeatures), empty
  // for none. On a device without one it is not run, not even by check or --variant: its program would
  // not build there (docs/kernel-abi.md).
  std::vector<std::string> needs;
  // Why two launches on the same inputs may give different bits (`nondeterministic REASON`: float
  // atomics, say), empty for a deterministic variant: check runs every case twice and compares them.
  std::string nondeterministic;
  // The non-finite policy its results are judged under (`nonfinite ieee WHY`; check/compare.hpp):
  // "ieee", "limits", or empty for the default (limits). `check --nonfinite` overrides it.
  std::string nonfinite;
  // The numeric mode its kernels compute in (`math MODE`; core/numeric_mode.hpp), judged under that
  // mode's bound; empty: exact. `check --math` sets it for every variant. A mode that needs certain
  // problems (winograd: 3 x 3, stride 1) adds its condition to `when`.
  std::string math;

  // "-DTS=32 -DWPT=4": the build options of the variant's program.
  std::string build_options() const;
  const std::string* define(const std::string& name) const;
  // This variant with some defines replaced; Error when it declares no such define.
  Variant with_defines(const std::vector<std::pair<std::string, std::string>>& overrides) const;
  // The variant whose program runs step st: its defines with the step's own over them (added where the
  // variant has none of that name).
  Variant for_step(const Step& st) const;
  // The variant's name as results show it: "matmul/tiled".
  std::string id() const { return op + "/" + name; }
  // Whether the defines meet every `require` line; the first that fails, in words, when not.
  std::string unmet_requirement() const;
};

// The features a `needs` line may name, each with what it means; opencl/device.cpp detects them.
//   nvidia_sm80  NVIDIA's OpenCL on compute capability 8.0 or later: inline PTX reaches the tensor
//                cores' mma.sync with f16 and bf16 operands (xgemm_mma.cl)
//   nvidia_sm90a NVIDIA's OpenCL on compute capability 9.0 (Hopper): sm_90a's PTX (wgmma), which the
//                OpenCL compiler does not target itself; the kernel writes it behind `//SM90A: ` and
//                the runtime builds the rewritten PTX (opencl/runtime.cpp, xgemm_mma_wgmma.h)
//   local_mem_48k  48 KiB of local memory a work-group or more (CL_DEVICE_LOCAL_MEM_SIZE): OpenCL
//                promises 32 KiB; kernels that fill 48 KiB (softmax_held.cl) build but cannot launch below it
inline const std::vector<std::string> kDeviceFeatures = {"nvidia_sm80", "nvidia_sm90a", "local_mem_48k"};

// A `dtypes` list ("f16 bf16" or "f16,bf16") for operator op: Error on an unknown format, a repeat,
// or a 16-bit format for an operator without a dtype attribute.
std::vector<std::string> parse_dtypes(const std::string& list, const std::string& op);

// The storage formats v takes, f32 first where it takes f32; whether it takes p's.
std::vector<std::string> dtypes_of(const Variant& v);
bool takes_dtype(const Variant& v, const Problem& p);

// Parses a plan file's text. `path` names it in messages; `file_dir` is where relative `file` names
// point (empty: they stay relative, to the kernel folder). Every variant must have at least one step.
std::vector<Variant> parse_plan(const std::string& text, const std::string& path, const std::string& file_dir = "");
std::vector<Variant> read_plan_file(const std::string& path, bool files_relative_to_plan);

// Everything below throws Error naming the variant's plan line and the problem when an expression
// cannot be evaluated (an unknown name, a division by zero, an overflow).

// The names an expression of variant v sees for problem p: attributes (integers; named choices as
// their index; float attributes as floats), integer defines, the variant's lets, and p's tensors for
// numel() and dim().
Env env_for(const Variant& v, const Problem& p);

bool applies(const Variant& v, const Problem& p);  // the variant's condition and dtypes: it serves p
// Its numeric mode is exact (no `math` line, or `math exact`): variants in another mode run only where
// no exact one serves a problem (select_variant, KernelChecker::select).
inline bool computes_exactly(const Variant& v) { return v.math.empty() || v.math == "exact"; }
bool preferred(const Variant& v, const Problem& p);  // it serves p, and its `prefer` holds
bool step_applies(const Variant& v, const Step& s, const Problem& p);
std::vector<int64_t> scratch_floats(const Variant& v, const Problem& p);

// A step's NDRange for p: the global and (if given) local sizes, checked: every size positive, as
// many local as global dimensions, and each local size dividing its global size.
struct Dispatch {
  std::vector<size_t> global, local;
  std::string str() const;  // "global (64,32,1) local (16,16,1)"
};
Dispatch dispatch(const Variant& v, const Step& s, const Problem& p);

// The sizes a variant's tiles and work-groups are built from: every integer define >= 2, every `let`
// >= 2 over the defines alone (a tile's extent in the problem's units, as max_pool2d_bwd's tiles in
// cells: TILE_BR * PS) and every local size >= 2 that does not depend on the problem. The generators
// reach their multiples +-1.
std::vector<int64_t> tile_sizes(const Variant& v);

// Whether an expression of v depends on the problem (its attributes, its tensors), not on v's defines
// alone: a global size that grows with the problem, say.
bool depends_on_problem(const Variant& v, const Expr& e);

// The shape class of p: the first whose condition holds; "all" when the variant declares none, ""
// when none holds (the plan's defaults then serve p).
std::string class_of(const Variant& v, const Problem& p);

// A problem near p that meets v's condition, made by setting the attributes its conjuncts name
// (k == 1, c % 4 == 0, r <= 3, ...) and re-validating; nullopt when that does not get there.
std::optional<Problem> steer(const Variant& v, const Problem& p);

}  // namespace plumbline::plans
