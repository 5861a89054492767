// ptxprof: one of our OpenCL kernels through CUDA, so that ncu (which sees no OpenCL kernel on the GPU
// machine) can read its counters. NVIDIA's OpenCL compiler builds FILE.cl with OPTIONS; its program
// binary (PTX), the group offsets zeroed and the sm_90a instructions unmarked as opencl/runtime.cpp does,
// is written to OUT.ptx and loaded with the CUDA driver API (libcuda through dlopen: no CUDA headers
// here), and xgemm_mma's signature is launched on an m x k x n bf16 or f16 product (NDRange as
// gemm.plan's steps), ROUNDS rounds of 10 launches, timed with CUDA events; then each further problem
// with the same build. A diagnostic, not a check: the result is not compared (plumbline check does
// that). Built beside plumbline (build/bench/ptxprof); kept here since H100, 2026-11-27, whose calls
// used it (earlier records hold the copies their calls built).
// usage: ptxprof FILE.cl KERNEL "OPTIONS" M K N TB ROUNDS OUT.ptx [M K N TB]...
// e.g. under ncu: ncu --clock-control none -k regex:xgemm_mma -s 2 -c 1 --set full ptxprof ...
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
typedef int CUresult;
typedef void* CUcontext;
typedef void* CUmodule;
typedef void* CUfunction;
typedef void* CUevent;
typedef unsigned long long CUdeviceptr;
static int def(const std::string& d, const char* name, int dflt) {
  const size_t at = d.find(std::string("-D") + name + "=");
  return at == std::string::npos ? dflt : std::atoi(d.c_str() + at + 3 + std::strlen(name));
}
#define LOAD(f) auto f = (decltype(&f##_t))dlsym(cu, #f)
CUresult cuInit_t(unsigned);
CUresult cuDeviceGet_t(int*, int);
CUresult cuCtxCreate_v2_t(CUcontext*, unsigned, int);
CUresult cuModuleLoadData_t(CUmodule*, const void*);
CUresult cuModuleGetFunction_t(CUfunction*, CUmodule, const char*);
CUresult cuMemAlloc_v2_t(CUdeviceptr*, size_t);
CUresult cuMemcpyHtoD_v2_t(CUdeviceptr, const void*, size_t);
CUresult cuLaunchKernel_t(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**);
CUresult cuCtxSynchronize_t();
CUresult cuEventCreate_t(CUevent*, unsigned);
CUresult cuEventRecord_t(CUevent, void*);
CUresult cuEventSynchronize_t(CUevent);
CUresult cuEventElapsedTime_t(float*, CUevent, CUevent);
int main(int argc, char** argv) {
  if (argc < 10) {
    std::puts("usage: ptxprof FILE.cl KERNEL OPTIONS M K N TB ROUNDS OUT.ptx");
    return 2;
  }
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str(), opts = argv[3];
  int m = std::atoi(argv[4]), k = std::atoi(argv[5]), n = std::atoi(argv[6]), tb = std::atoi(argv[7]);
  const int rounds = std::atoi(argv[8]);
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  cl_device_id dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  if (!dev) {
    std::puts("no GPU");
    return 1;
  }
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  const char* s = src.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
  err = clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr);
  if (err) {
    std::printf("build failed %d\n", err);
    return 1;
  }
  size_t bytes = 0;
  clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bytes, &bytes, nullptr);
  std::vector<unsigned char> ptx(bytes + 1, 0);
  unsigned char* p = ptx.data();
  clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof p, &p, nullptr);
  // NVIDIA's OpenCL adds %envreg0..2 to %ctaid (the group offsets of a split NDRange); under CUDA
  // they are not set: zero here, for one launch of the whole grid.
  std::string text = reinterpret_cast<const char*>(ptx.data());
  for (const char* reg : {"%envreg0;", "%envreg1;", "%envreg2;"})
    for (size_t at = text.find(reg); at != std::string::npos; at = text.find(reg, at)) text.replace(at, std::strlen(reg), "0;");
  // sm_90a's instructions behind //SM90A: (xgemm_mma_wgmma.h), as plumbline's runtime builds them.
  if (text.find("//SM90A: ") != std::string::npos) {
    text.insert(text.find(".target sm_90") + 13, "a");
    for (size_t at = text.find("//SM90A: "); at != std::string::npos; at = text.find("//SM90A: ", at)) text.erase(at, 9);
  }
  std::ofstream(argv[9]) << text;
  ptx.assign(text.begin(), text.end());
  ptx.push_back(0);
  void* cu = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cu) {
    std::puts("no libcuda.so.1");
    return 1;
  }
  LOAD(cuInit);
  LOAD(cuDeviceGet);
  LOAD(cuCtxCreate_v2);
  LOAD(cuModuleLoadData);
  LOAD(cuModuleGetFunction);
  LOAD(cuMemAlloc_v2);
  LOAD(cuMemcpyHtoD_v2);
  LOAD(cuLaunchKernel);
  LOAD(cuCtxSynchronize);
  LOAD(cuEventCreate);
  LOAD(cuEventRecord);
  LOAD(cuEventSynchronize);
  LOAD(cuEventElapsedTime);
  int d0 = 0;
  CUcontext cc = nullptr;
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  if (cuInit(0) || cuDeviceGet(&d0, 0) || cuCtxCreate_v2(&cc, 0, d0)) {
    std::puts("cuda init failed");
    return 1;
  }
  if (CUresult r = cuModuleLoadData(&mod, ptx.data())) {
    std::printf("cuModuleLoadData %d\n", r);
    return 1;
  }
  if (CUresult r = cuModuleGetFunction(&fn, mod, argv[2])) {
    std::printf("cuModuleGetFunction %d\n", r);
    return 1;
  }
  for (int arg = 10;; arg += 4) {
    std::printf("problem %d x %d x %d tb=%d\n", m, k, n, tb);
    std::vector<unsigned short> ha(size_t(m) * k), hb(size_t(k) * n);
    for (size_t i = 0; i < ha.size(); ++i) ha[i] = 0x3F80 + (i * 7919 % 127);  // bf16 near 1 (f16: small normals)
    for (size_t i = 0; i < hb.size(); ++i) hb[i] = 0x3C00 + (i * 104729 % 251);
    CUdeviceptr a = 0, b = 0, c = 0;
    cuMemAlloc_v2(&a, ha.size() * 2), cuMemAlloc_v2(&b, hb.size() * 2), cuMemAlloc_v2(&c, size_t(m) * n * 2);
    cuMemcpyHtoD_v2(a, ha.data(), ha.size() * 2), cuMemcpyHtoD_v2(b, hb.data(), hb.size() * 2);
    int ta = 0, lda = k, ldb = tb ? k : n, ldc = n;
    long long ab = 0, bb = 0, cb = 0;
    void* args[] = {&m, &n, &k, &a, &lda, &ta, &ab, &b, &ldb, &tb, &bb, &c, &ldc, &cb};
    const int mwg = def(opts, "MWG", 128), nwg = def(opts, "NWG", 128), wgs = 32 * def(opts, "MWARPS", 2) * def(opts, "NWARPS", 4);
    const unsigned gx = (n + nwg - 1) / nwg, gy = (m + mwg - 1) / mwg;
    CUevent e0, e1;
    cuEventCreate(&e0, 0), cuEventCreate(&e1, 0);
    for (int r = 0; r < rounds; ++r) {
      cuEventRecord(e0, nullptr);
      for (int l = 0; l < 10; ++l)
        if (CUresult x = cuLaunchKernel(fn, gx, gy, 1, wgs, 1, 1, 0, nullptr, args, nullptr)) {
          std::printf("launch %d\n", x);
          return 1;
        }
      cuEventRecord(e1, nullptr);
      cuEventSynchronize(e1);
      float ms = 0;
      cuEventElapsedTime(&ms, e0, e1);
      std::printf("round %d: %.4f ms a launch, %.1f TFLOP/s\n", r, ms / 10, 2.0 * m * n * k / (ms / 10 * 1e-3) / 1e12);
    }
    if (arg + 3 >= argc) break;
    m = std::atoi(argv[arg]), k = std::atoi(argv[arg + 1]), n = std::atoi(argv[arg + 2]), tb = std::atoi(argv[arg + 3]);
  }
  return cuCtxSynchronize();
}
