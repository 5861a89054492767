// Runs a max_pool2d_bwd kernel of ours through CUDA, so that ncu (which sees no OpenCL kernel on the GPU
// machine) can read its counters: bench/results/h100-2026-11-26/mma/ptxprof/ptxprof.cpp with the
// pooling signature (x, d_y, d_x, n, c, h, w, kh, kw, sh, sw, ph, pw). NVIDIA's OpenCL compiler builds
// FILE.cl with OPTIONS; its PTX, group and global offsets (%envreg0..5) zeroed, is written to OUT.ptx and launched on a
// (GX / LX, GY) grid of LX work-items, ROUNDS times 10, timed with CUDA events. A diagnostic, not a
// check: the result is not compared (plumbline check does that).
// usage: poolprof FILE.cl KERNEL "OPTIONS" N C H W K S P GX GY LX ROUNDS OUT.ptx
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
  if (argc < 15) { std::puts("usage: poolprof FILE.cl KERNEL OPTIONS N C H W K S P GX GY LX ROUNDS OUT.ptx"); return 2; }
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str(), opts = argv[3];
  int n = std::atoi(argv[4]), c = std::atoi(argv[5]), h = std::atoi(argv[6]), w = std::atoi(argv[7]);
  int k = std::atoi(argv[8]), s = std::atoi(argv[9]), pad = std::atoi(argv[10]);
  const unsigned gx = std::atoi(argv[11]), gy = std::atoi(argv[12]), lx = std::atoi(argv[13]);
  const int rounds = std::atoi(argv[14]);
  const size_t es = opts.find("DTYPE_BF16") != std::string::npos || opts.find("DTYPE_F16") != std::string::npos ? 2 : 4;
  const int oh = (h + 2 * pad - k) / s + 1, ow = (w + 2 * pad - k) / s + 1;
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  cl_device_id dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  if (!dev) { std::puts("no GPU"); return 1; }
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  const char* sp = src.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &sp, nullptr, &err);
  err = clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr);
  if (err) {
    std::vector<char> log(1 << 20);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
    std::printf("build failed %d\n%s\n", err, log.data());
    return 1;
  }
  size_t bytes = 0;
  clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bytes, &bytes, nullptr);
  std::vector<unsigned char> ptx(bytes + 1, 0);
  unsigned char* p = ptx.data();
  clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof p, &p, nullptr);
  std::string text = reinterpret_cast<const char*>(ptx.data());
  for (const char* reg : {"%envreg0;", "%envreg1;", "%envreg2;", "%envreg3;", "%envreg4;", "%envreg5;"})
    for (size_t at = text.find(reg); at != std::string::npos; at = text.find(reg, at)) text.replace(at, std::strlen(reg), "0;");
  std::ofstream(argv[15]) << text;
  ptx.assign(text.begin(), text.end());
  ptx.push_back(0);
  void* cu = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cu) { std::puts("no libcuda.so.1"); return 1; }
  LOAD(cuInit); LOAD(cuDeviceGet); LOAD(cuCtxCreate_v2); LOAD(cuModuleLoadData); LOAD(cuModuleGetFunction); LOAD(cuMemAlloc_v2);
  LOAD(cuMemcpyHtoD_v2); LOAD(cuLaunchKernel); LOAD(cuCtxSynchronize); LOAD(cuEventCreate); LOAD(cuEventRecord);
  LOAD(cuEventSynchronize); LOAD(cuEventElapsedTime);
  int d0 = 0;
  CUcontext cc = nullptr;
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  if (cuInit(0) || cuDeviceGet(&d0, 0) || cuCtxCreate_v2(&cc, 0, d0)) { std::puts("cuda init failed"); return 1; }
  if (CUresult r = cuModuleLoadData(&mod, ptx.data())) { std::printf("cuModuleLoadData %d\n", r); return 1; }
  if (CUresult r = cuModuleGetFunction(&fn, mod, argv[2])) { std::printf("cuModuleGetFunction %d\n", r); return 1; }
  const size_t nx = size_t(n) * c * h * w, ny = size_t(n) * c * oh * ow;
  std::vector<unsigned char> hx(nx * es), hy(ny * es);
  for (size_t i = 0; i < hx.size(); ++i) hx[i] = (unsigned char)(i * 7919 % 251 % 0x7f);  // finite values of every size
  for (size_t i = 0; i < hy.size(); ++i) hy[i] = (unsigned char)(i * 104729 % 241 % 0x3f);
  CUdeviceptr x = 0, dy = 0, dx = 0;
  cuMemAlloc_v2(&x, hx.size()), cuMemAlloc_v2(&dy, hy.size()), cuMemAlloc_v2(&dx, hx.size());
  cuMemcpyHtoD_v2(x, hx.data(), hx.size()), cuMemcpyHtoD_v2(dy, hy.data(), hy.size());
  void* args[] = {&x, &dy, &dx, &n, &c, &h, &w, &k, &k, &s, &s, &pad, &pad};
  CUevent e0, e1;
  cuEventCreate(&e0, 0), cuEventCreate(&e1, 0);
  const double traffic = double(2 * nx + ny) * es;
  for (int r = 0; r < rounds; ++r) {
    cuEventRecord(e0, nullptr);
    for (int l = 0; l < 10; ++l)
      if (CUresult e = cuLaunchKernel(fn, gx / lx, gy, 1, lx, 1, 1, 0, nullptr, args, nullptr)) { std::printf("launch %d\n", e); return 1; }
    cuEventRecord(e1, nullptr);
    cuEventSynchronize(e1);
    float ms = 0;
    cuEventElapsedTime(&ms, e0, e1);
    std::printf("round %d: %.4f ms a launch, %.1f GB/s\n", r, ms / 10, traffic / (ms / 10 * 1e-3) / 1e9);
  }
  return cuCtxSynchronize();
}
