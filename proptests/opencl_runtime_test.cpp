// opencl/: devices and selectors, the poison and guard checks, the program cache, build logs,
// allocation limits and the watchdog, on every OpenCL device found.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <pthread.h>
#include <random>

#include "core/error.hpp"
#include "proptests/test_support.hpp"
#include "opencl/runtime.hpp"

using namespace plumbline;
using plumbline::test::error_of;
using namespace plumbline::ocl;

namespace {

// A kernel family for the tests: y[i] = 2 x[i] for i < limit, where the caller picks the limit.
const char* kScale = R"CL(
__kernel void scale(__global const float* x, __global float* y, int limit) {
  int i = get_global_id(0);
  if (i < limit) y[i] = 2.0f * x[i];
}
__kernel void nothing(__global const float* x, __global float* y, int limit) {}
__kernel void before_start(__global const float* x, __global float* y, int limit) {
  int i = get_global_id(0);
  if (i < limit) y[i - 1] = x[i];
}
)CL";

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// POCL_KERNEL_CACHE set (or unset, given nullptr) for one scope, then as it was.
class PoclKernelCache {
 public:
  explicit PoclKernelCache(const char* value) {
    if (const char* was = std::getenv("POCL_KERNEL_CACHE")) was_ = was;
    value ? setenv("POCL_KERNEL_CACHE", value, 1) : unsetenv("POCL_KERNEL_CACHE");
  }
  ~PoclKernelCache() { was_ ? setenv("POCL_KERNEL_CACHE", was_->c_str(), 1) : unsetenv("POCL_KERNEL_CACHE"); }

 private:
  std::optional<std::string> was_;
};

class OnEveryDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    // A private cache folder per test run, so that the cache tests start cold.
    cache_ = std::filesystem::temp_directory_path() / ("plumbline_cache_test_" + std::to_string(std::random_device{}()));
    setenv("PLUMBLINE_CACHE_DIR", cache_.c_str(), 1);
    devices_ = select_devices(default_selector());
  }
  void TearDown() override { std::filesystem::remove_all(cache_); }

  // Runs `entry` over n elements with the given limit; returns the output buffer's problems.
  std::vector<std::string> launch(Runtime& rt, const char* entry, int64_t n, int limit) {
    cl::Kernel k(rt.build(kScale, "", "scale.cl").program, entry);
    GuardedBuffer x = rt.buffer("x", n), y = rt.buffer("y", n);
    x.upload(std::vector<float>(static_cast<size_t>(n), 1.5f));
    y.poison();
    set_args(k, x, y, limit);
    rt.run(k, cl::NDRange(static_cast<size_t>(n)), cl::NullRange, entry);
    auto problems = y.inspect(true);
    auto xp = x.inspect(false);
    problems.insert(problems.end(), xp.begin(), xp.end());
    return problems;
  }

  std::filesystem::path cache_;
  std::vector<DeviceInfo> devices_;
};

}  // namespace

// The threads a CPU driver creates to run work-groups get stacks big enough for a large work-group's
// private values (opencl/device.cpp: at glibc's 8 MiB, a 512-work-item GEMM tile on PoCL overflowed
// into the next thread's stack and computed wrong numbers one run in two).
TEST(Devices, DriverThreadsGetLargeStacks) {
  (void)list_devices();
  pthread_attr_t attr;
  ASSERT_EQ(pthread_getattr_default_np(&attr), 0);
  size_t size = 0;
  ASSERT_EQ(pthread_attr_getstacksize(&attr, &size), 0);
  pthread_attr_destroy(&attr);
  EXPECT_GE(size, size_t{64} << 20);
}

TEST(Devices, ListAndSelect) {
  const auto all = list_devices();
  ASSERT_FALSE(all.empty());
  for (const auto& d : all) {
    EXPECT_NE(d.selector.find(':'), std::string::npos);
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.compute_units, 0u);
    EXPECT_GT(d.max_alloc_bytes, 0u);
  }
  EXPECT_EQ(select_devices("all").size(), all.size());
  EXPECT_EQ(select_devices(all[0].selector).at(0).selector, all[0].selector);
  EXPECT_EQ(select_devices(all[0].selector + "," + all[0].selector).size(), 1u);
  const std::string e = error_of([] { select_devices("quantum:7"); });
  EXPECT_NE(e.find("device selector 'quantum:7' matches no device; available: " + all[0].selector), std::string::npos) << e;
}

// NVIDIA's CL_KERNEL_LOCAL_MEM_SIZE pads a 1024-aligned array by 1024 bytes; the PTX's declarations give
// what ptxas allocates: each array of the entry at its alignment, other kernels' arrays left out.
TEST(LocalMemory, CountedFromThePtxDeclarationsOfTheEntry) {
  const std::string ptx =
      ".version 8.0\n.target sm_90a\n"
      ".shared .align 1024 .b8 gemm_$_slabs_[49152];\n"
      ".shared .align 4 .b8 gemm_$_flag[4];\n"
      ".shared .align 16 .b8 pack_$_tile[8448];\n"
      ".extern .shared .align 16 .b8 dynamic[];\n"
      ".entry gemm(\n.param .u32 n\n)\n{}\n.entry pack(\n)\n{}\n";
  EXPECT_EQ(ptx_local_bytes(ptx, "gemm"), std::optional<size_t>(49156));
  EXPECT_EQ(ptx_local_bytes(ptx, "pack"), std::optional<size_t>(8448));
  std::string flag_first = ptx;
  flag_first.replace(flag_first.find(".shared .align 1024"), 0, ".shared .align 4 .b8 gemm_$_first[4];\n");
  EXPECT_EQ(ptx_local_bytes(flag_first, "gemm"), std::optional<size_t>(1024 + 49152 + 4));  // the slabs aligned after it
  EXPECT_EQ(ptx_local_bytes(ptx, "scale"), std::nullopt);                                   // declares none: the driver's figure stands
  std::string foreign = ptx;
  foreign.replace(foreign.find(".entry gemm"), 0, ".shared .align 4 .b8 scratch[64];\n");
  EXPECT_EQ(ptx_local_bytes(foreign, "gemm"), std::nullopt);  // an array of no kernel's name
  EXPECT_EQ(ptx_local_bytes("\x7f"
                            "ELF not PTX",
                            "gemm"),
            std::nullopt);
}

// A plan's MAX_REGISTERS=N reaches ptxas as `.maxnreg N` on each kernel, before its body and after its
// own directives; a kernel with a cap of its own keeps it, and a bad value is an error that names it.
TEST(RegisterCap, MaxnregBeforeEachKernelsBody) {
  EXPECT_EQ(max_registers_define("-DROW_WG=256 -DMAX_REGISTERS=64 -DQUAD_UNROLL=4"), 64);
  EXPECT_EQ(max_registers_define("-DMAX_REGISTERS=80 -DMAX_REGISTERS=64"), 64);  // the last, as the compiler takes it
  EXPECT_EQ(max_registers_define("-DROW_WG=256"), 0);
  EXPECT_EQ(max_registers_define("-DMAX_REGISTERS=0"), 0);
  for (const char* bad : {"-DMAX_REGISTERS=", "-DMAX_REGISTERS=64k", "-DMAX_REGISTERS=-1", "-DMAX_REGISTERS=256"}) {
    try {
      max_registers_define(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("MAX_REGISTERS="), std::string::npos) << e.what();
    }
  }
  const std::string ptx =
      ".version 8.0\n.target sm_90\n"
      ".entry held(\n.param .u64 held_param_0\n)\n.reqntid 256, 1, 1\n{\nret;\n}\n"
      ".entry own(\n)\n.maxnreg 32\n{\nret;\n}\n"
      ".entry plain(\n)\n{\nret;\n}\n";
  EXPECT_EQ(ptx_with_max_registers(ptx, 64),
            ".version 8.0\n.target sm_90\n"
            ".entry held(\n.param .u64 held_param_0\n)\n.reqntid 256, 1, 1\n.maxnreg 64\n{\nret;\n}\n"
            ".entry own(\n)\n.maxnreg 32\n{\nret;\n}\n"
            ".entry plain(\n)\n.maxnreg 64\n{\nret;\n}\n");
}

TEST(Errors, NamedCodesAndHints) {
  EXPECT_EQ(error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES (-5)");
  EXPECT_EQ(error_name(CL_INVALID_KERNEL_NAME), "CL_INVALID_KERNEL_NAME (-46)");
  EXPECT_EQ(error_name(-9999), "unknown OpenCL status -9999");
  const std::string lost = error_of([] { fail(CL_DEVICE_NOT_AVAILABLE, "running conv"); });
  EXPECT_NE(lost.find("CL_DEVICE_NOT_AVAILABLE (-2) while running conv"), std::string::npos);
  EXPECT_NE(lost.find("lost"), std::string::npos);
  EXPECT_NE(error_of([] { fail(-1001, "x"); }).find("no OpenCL driver is registered"), std::string::npos);
}

TEST_F(OnEveryDevice, CorrectKernelLeavesNoTrace) {
  for (const auto& d : devices_) {
    Runtime rt(d);
    EXPECT_EQ(join(launch(rt, "scale", 1000, 1000)), "") << d.selector;
  }
}

TEST_F(OnEveryDevice, PoisonCatchesAKernelThatWritesNothing) {
  for (const auto& d : devices_) {
    Runtime rt(d);
    const std::string p = join(launch(rt, "nothing", 1000, 1000));
    EXPECT_NE(p.find("buffer 'y': 1000 of 1000 elements left unwritten (still poisoned), the first at index 0"), std::string::npos)
        << d.selector << ": " << p;
    // A kernel that stops one short leaves exactly the last element.
    const std::string q = join(launch(rt, "scale", 1000, 999));
    EXPECT_NE(q.find("1 of 1000 elements left unwritten (still poisoned), the first at index 999"), std::string::npos) << q;
  }
}

TEST_F(OnEveryDevice, GuardsCatchWritesPastEitherEnd) {
  for (const auto& d : devices_) {
    Runtime rt(d);
    // 1001 work-items over 1000 elements and no bound check beyond the limit: one write past the end.
    cl::Kernel k(rt.build(kScale, "", "scale.cl").program, "scale");
    GuardedBuffer x = rt.buffer("x", 1001), y = rt.buffer("y", 1000);
    x.upload(std::vector<float>(1001, 1.0f));
    y.poison();
    set_args(k, x, y, 1001);
    rt.run(k, cl::NDRange(1001), cl::NullRange, "scale");
    const std::string p = join(y.inspect(true));
    EXPECT_NE(p.find("buffer 'y' of 1000 elements: written past its end (1 guard elements changed, the first at index 1000)"), std::string::npos)
        << d.selector << ": " << p;
    const std::string b = join(launch(rt, "before_start", 100, 100));
    EXPECT_NE(b.find("buffer 'y': written before its start (1 guard elements changed, the nearest at index -1)"), std::string::npos) << b;
  }
}

// f16 and bf16 buffers hold 16-bit words: their guards, poison and input comparison work on the words.
TEST_F(OnEveryDevice, SixteenBitBuffersCatchWritesPastTheEndUnwrittenWordsAndChangedInputs) {
  const char* src = R"CL(
__kernel void copy16(__global ushort* x, __global ushort* y, int limit, int touch_input) {
  int i = get_global_id(0);
  if (i < limit) y[i] = x[i];
  if (touch_input && i == 0) x[0] ^= 1;
}
)CL";
  for (const auto& d : devices_)
    for (DType dt : {DType::F16, DType::BF16}) {
      Runtime rt(d);
      cl::Kernel k(rt.build(src, "", "copy16.cl").program, "copy16");
      auto run = [&](int items, int n, int limit, int touch) {
        GuardedBuffer x = rt.buffer("x", items, dt), y = rt.buffer("y", n, dt);
        std::vector<float> v(static_cast<size_t>(items));
        for (int i = 0; i < items; ++i) v[static_cast<size_t>(i)] = round_to(dt, 0.1f * static_cast<float>(i) - 7.0f);
        x.upload(v);
        y.poison();
        set_args(k, x, y, limit, touch);
        rt.run(k, cl::NDRange(static_cast<size_t>(items)), cl::NullRange, "copy16");
        std::vector<float> got;
        std::string p = join(y.inspect(true, &got));
        if (!x.holds(v)) p += "input changed\n";
        if (p.empty()) {
          EXPECT_EQ(got, std::vector<float>(v.begin(), v.begin() + n)) << to_string(dt);
        }
        return p;
      };
      EXPECT_EQ(run(100, 100, 100, 0), "") << d.selector << " " << to_string(dt);
      EXPECT_NE(run(101, 100, 101, 0).find("buffer 'y' of 100 elements: written past its end (1 guard elements changed, the first at index 100)"),
                std::string::npos);
      EXPECT_NE(run(100, 100, 99, 0).find("1 of 100 elements left unwritten (still poisoned), the first at index 99"), std::string::npos);
      EXPECT_NE(run(100, 100, 100, 1).find("input changed"), std::string::npos);
      GuardedBuffer z = rt.buffer("z", 1, dt);
      EXPECT_NE(error_of([&] { z.upload({0.1f}); }).find("is not a " + std::string(to_string(dt)) + " value"), std::string::npos);
    }
}

TEST_F(OnEveryDevice, SecondBuildIsACacheHit) {
  // PoCL's own kernel cache stands in for ours (driver_caches_builds): turned off, ours is used there too.
  const PoclKernelCache off("0");
  for (const auto& d : devices_) {
    ASSERT_FALSE(driver_caches_builds(d)) << d.selector;
    const std::string source = std::string(kScale) + "// " + std::to_string(std::random_device{}()) + "\n";
    {
      Runtime rt(d);
      EXPECT_FALSE(rt.build(source, "-cl-fast-relaxed-math", "scale.cl").from_cache);
      EXPECT_TRUE(rt.build(source, "-cl-fast-relaxed-math", "scale.cl").from_cache);
      // Other options are another program.
      EXPECT_FALSE(rt.build(source, "", "scale.cl").from_cache);
    }
    // A new context (as a second run of the program) also hits, and the cached binary computes.
    Runtime again(d);
    BuiltProgram built = again.build(source, "", "scale.cl");
    EXPECT_TRUE(built.from_cache);
    cl::Kernel k(built.program, "scale");
    GuardedBuffer x = again.buffer("x", 10), y = again.buffer("y", 10);
    x.upload(std::vector<float>(10, 3.0f));
    y.poison();
    set_args(k, x, y, 10);
    again.run(k, cl::NDRange(10), cl::NullRange, "scale");
    EXPECT_EQ(y.download(), std::vector<float>(10, 6.0f));
    EXPECT_TRUE(y.inspect(true).empty());
  }
}

// Where the driver caches its builds (PoCL, POCL_KERNEL_CACHE not 0), plumbline writes and reads no
// binary of its own: reading a PoCL program's binary is what compiled every kernel in it.
TEST_F(OnEveryDevice, NoBinaryKeptWhereTheDriverCachesItsBuilds) {
  const PoclKernelCache on(nullptr);
  for (const auto& d : devices_) {
    if (d.platform_name.find("Portable Computing Language") == std::string::npos) continue;  // PoCL's, documented
    EXPECT_TRUE(driver_caches_builds(d)) << d.selector;
    const std::string source = std::string(kScale) + "// " + std::to_string(std::random_device{}()) + "\n";
    Runtime rt(d);
    EXPECT_FALSE(rt.build(source, "", "scale.cl").from_cache);
    EXPECT_FALSE(rt.build(source, "", "scale.cl").from_cache);
    EXPECT_FALSE(std::filesystem::exists(cache_)) << "a binary was kept for " << d.selector;
  }
}

// Every build sees the device's features as defines, FEATURE_NAME=1 (storage.h's bf16 pairs take
// cvt.rn.bf16x2.f32 under FEATURE_NVIDIA_SM80), and not a feature it lacks.
TEST_F(OnEveryDevice, BuildsSeeTheDeviceFeaturesAsDefines) {
  for (const auto& d : devices_) {
    Runtime rt(d);
    std::vector<std::string> names = d.features;
    names.push_back("not_a_feature");
    std::string source = "__kernel void seen(__global float* y) {\n";
    for (size_t i = 0; i < names.size(); ++i) {
      std::string name = names[i];
      for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      source += "#if defined(FEATURE_" + name + ")\n  y[" + std::to_string(i) + "] = FEATURE_" + name + ";\n#else\n  y[" + std::to_string(i) +
                "] = 0;\n#endif\n";
    }
    source += "}\n";
    cl::Kernel k(rt.build(source, "", "seen.cl").program, "seen");
    GuardedBuffer y = rt.buffer("y", static_cast<int64_t>(names.size()));
    y.poison();
    set_args(k, y);
    rt.run(k, cl::NDRange(1), cl::NullRange, "seen");
    std::vector<float> expected(names.size(), 1.0f);
    expected.back() = 0.0f;
    EXPECT_EQ(y.download(), expected) << d.selector << ": features " << join(d.features);
  }
}

TEST_F(OnEveryDevice, SyntaxErrorReportsTheBuildLog) {
  for (const auto& d : devices_) {
    Runtime rt(d);
    const std::string e = error_of([&] { rt.build("__kernel void broken(__global float* y) { y[0] = undeclared_thing + 1.0f; }", "", "broken.cl"); });
    EXPECT_NE(e.find("building broken.cl failed on " + d.selector), std::string::npos) << e;
    EXPECT_NE(e.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << e;
    EXPECT_NE(e.find("build log:"), std::string::npos) << e;
    EXPECT_NE(e.find("undeclared_thing"), std::string::npos) << "the compiler's own message is missing: " << e;
  }
}

TEST_F(OnEveryDevice, AllocationBeyondTheDeviceLimitIsAClearError) {
  for (const auto& d : devices_) {
    Runtime rt(d);
    const int64_t too_many = static_cast<int64_t>(d.max_alloc_bytes / 4) + 1;
    const std::string e = error_of([&] { rt.buffer("activations", too_many); });
    EXPECT_NE(e.find("buffer 'activations' needs"), std::string::npos) << e;
    EXPECT_NE(e.find("allows at most " + std::to_string(d.max_alloc_bytes) + " bytes in one allocation"), std::string::npos) << e;
  }
}

TEST_F(OnEveryDevice, WatchdogReportsAKernelThatRunsTooLong) {
  const char* slow = R"CL(
__kernel void slow(__global float* y, int n) {
  float a = y[get_global_id(0)];
  for (int i = 0; i < n; ++i) a = a * 0.9999f + 1.0f;
  y[get_global_id(0)] = a;
})CL";
  for (const auto& d : devices_) {
    Runtime rt(d);
    cl::Kernel k(rt.build(slow, "", "slow.cl").program, "slow");
    GuardedBuffer y = rt.buffer("y", 64);
    y.upload(std::vector<float>(64, 0.0f));
    set_args(k, y, 20000000);
    rt.set_watchdog(0.001);
    bool hung = false;
    std::string e;
    try {
      rt.run(k, cl::NDRange(64), cl::NullRange, "slow");
    } catch (const KernelFault& f) {
      hung = f.hung();
      e = f.what();
    }
    EXPECT_TRUE(hung) << e;
    EXPECT_NE(e.find("watchdog: slow did not finish within"), std::string::npos) << e;
    rt.queue().finish();  // let it end before the context goes
  }
}

// ---- Oclgrind's reports (opencl/oclgrind.hpp): as its 21.10 writes them -----------------------------

TEST(OclgrindLog, RacesDivergenceUninitializedAndBoundsBecomeVerdictsWithTheirSites) {
  const std::string log = R"(
Read-write data race at local memory address 0x1000000000084
	Kernel: rb_gemm

	First entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)
	  store float %cond77.1336, float addrspace(3)* %arrayidx81.1338, align 4, !dbg !147, !tbaa !127
	At line 37 (column 18) of rb_gemm.cl:
	  (whatever Oclgrind finds at that line of the inlined text)

	Second entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)
	  %11 = load float, float addrspace(3)* %arrayidx154, align 4, !dbg !183, !tbaa !127
	At line 46 (column 26) of rb_gemm.cl:
	  const float av = As[ty + i * RTS][e];


Work-group divergence detected (barrier)
	Kernel:     add
	Work-group: (1,0,0)
	Only 36 out of 64 work-items executed barrier
	  tail call spir_func void @_Z7barrierj(i32 noundef 1) #5, !dbg !47
	At line 6 (column 5) of div.cl:
	  barrier(CLK_LOCAL_MEM_FENCE);


Uninitialized value written to local memory address 0x1000000000000
	Kernel: sum_unwritten
	Entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)
	  store float %add, float addrspace(3)* %arrayidx, align 4, !dbg !54
	At line 15 (column 34) of sum.cl:
	  part[lid] += part[lid + h];


Invalid read of size 4 at global memory address 0x10000000013a0
	Kernel: add
	Entity: Global(64,0,0) Local(0,0,0) Group(1,0,0)
	  %0 = load float, float addrspace(1)* %arrayidx, align 4, !dbg !33, !tbaa !34
	At line 3 (column 22) of oob.cl:
	  y[i] = a[i + 1000] + b[i];


OCLGRIND FATAL ERROR (./src/plugins/Uninitialized.cpp:1805)
Unsupported instruction: freeze
	Kernel: xgemm


Oclgrind: 1000 errors generated - suppressing further errors
)";
  const auto r = parse_oclgrind_log(log);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].verdict, "race");
  EXPECT_EQ(r[0].memory, "local");
  EXPECT_EQ(r[0].address, 0x1000000000084ull);
  EXPECT_EQ(r[0].kernel, "rb_gemm");
  ASSERT_EQ(r[0].sites.size(), 2u);
  EXPECT_EQ(r[0].sites[0].line, 37);
  EXPECT_EQ(r[0].sites[0].access, "store");
  EXPECT_EQ(r[0].sites[0].group, "(0,0,0)");
  EXPECT_EQ(r[0].sites[1].line, 46);
  EXPECT_EQ(r[0].sites[1].access, "load");
  EXPECT_EQ(describe(r[0], [](const std::string& file, int line) { return file == "rb_gemm.cl" && line == 37 ? "As[r][c] = a;" : ""; }),
            "read-write data race in local memory in kernel rb_gemm: line 37 of rb_gemm.cl `As[r][c] = a;` (a store by work-item (1,0,0) "
            "of work-group (0,0,0)) against line 46 of rb_gemm.cl (a load by work-item (0,0,0) of work-group (0,0,0))");
  EXPECT_EQ(r[1].verdict, "barrier-divergence");
  ASSERT_EQ(r[1].sites.size(), 1u);
  EXPECT_EQ(r[1].sites[0].line, 6);
  EXPECT_EQ(r[1].sites[0].who, "work-group (1,0,0), Only 36 out of 64 work-items executed barrier");
  EXPECT_EQ(r[2].verdict, "uninitialized");
  EXPECT_EQ(r[3].verdict, "out-of-bounds");
  EXPECT_EQ(r[3].memory, "global");
  EXPECT_EQ(r[4].verdict, "cannot-run");
  EXPECT_EQ(r[4].headline, "OCLGRIND FATAL ERROR (./src/plugins/Uninitialized.cpp:1805): Unsupported instruction: freeze");
}
