// Times max_pool_backward_blocks (pooling.cl) on the first GPU, built with each of the given option
// strings (e.g. NVIDIA's -cl-nv-maxrregcount=N), on ResNet's stem pool backward (n=32 c=64 112x112,
// 3x3/2/1): registers from -cl-nv-verbose, the median of 9 timings of 20 back-to-back launches each
// (event-timed), and whether d_x has the same bits as the first build's. An experiment: plumbline's
// plans cannot pass build options; this says whether a register cap would be worth a plan line.
// usage: regcap KERNEL_DIR "DEFINES" "OPTIONS_1" "OPTIONS_2" ...
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const std::string dir = argv[1], defines = argv[2];
  std::ifstream f(dir + "/pooling.cl");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  cl_device_id dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  for (cl_uint i = 0; i < np && !dev && std::getenv("REGCAP_ANY"); ++i)  // a CPU device, to try this program out
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  if (!dev) { std::puts("no GPU"); return 1; }
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  const int n = 32, c = 64, h = 112, w = 112, k = 3, s = 2, p = 1, oh = 56, ow = 56;
  const size_t nx = size_t(n) * c * h * w, ny = size_t(n) * c * oh * ow;
  std::vector<float> x(nx), dy(ny), first(nx), out(nx);
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> d(-8, 8);  // ties, as in plumbline's integers distribution
  for (auto& v : x) v = float(d(gen));
  for (auto& v : dy) v = float(d(gen)) / 8;
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nx * 4, x.data(), &err);
  cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ny * 4, dy.data(), &err);
  cl_mem bdx = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, nx * 4, nullptr, &err);
  int bx_ = 0, bi = 0, bj = 0;  // POOL_BX, POOL_BI, POOL_BJ from the defines
  std::sscanf(std::strstr(defines.c_str(), "POOL_BX=") + 8, "%d", &bx_);
  std::sscanf(std::strstr(defines.c_str(), "POOL_BI=") + 8, "%d", &bi);
  std::sscanf(std::strstr(defines.c_str(), "POOL_BJ=") + 8, "%d", &bj);
  const size_t items = size_t((h + s - 1) / s + bi - 1) / bi * (((w + s - 1) / s + bj - 1) / bj);
  const size_t global[2] = {(items + bx_ - 1) / bx_ * bx_, size_t(n) * c}, local[2] = {size_t(bx_), 1};
  for (int a = 3; a < argc; ++a) {
    const std::string opts = std::string(std::getenv("REGCAP_ANY") ? "" : "-cl-nv-verbose ") + "-I" + dir + " -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 " + defines + " " + argv[a];
    const char* sp = src.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &sp, nullptr, &err);
    err = clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr);
    size_t ln = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &ln);
    std::string log(ln, '\0');
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, ln, log.data(), nullptr);
    const size_t at = log.find("entry function 'max_pool_backward_blocks'");
    std::string regs = "?";
    if (at != std::string::npos) {
      const size_t u = log.find("Used ", at);
      if (u != std::string::npos) regs = log.substr(u, log.find(',', u) - u);
    }
    if (err) { std::printf("[%s] build failed %d\n", argv[a], err); continue; }
    cl_kernel kern = clCreateKernel(prog, "max_pool_backward_blocks", &err);
    int ints[] = {n, c, h, w, k, k, s, s, p, p};
    clSetKernelArg(kern, 0, sizeof bx, &bx);
    clSetKernelArg(kern, 1, sizeof by, &by);
    clSetKernelArg(kern, 2, sizeof bdx, &bdx);
    for (int i = 0; i < 10; ++i) clSetKernelArg(kern, 3 + i, sizeof(int), &ints[i]);
    std::vector<double> ms;
    for (int rep = 0; rep < 10; ++rep) {
      cl_event e0 = nullptr, e1 = nullptr;
      for (int l = 0; l < 20; ++l)
        clEnqueueNDRangeKernel(q, kern, 2, nullptr, global, local, 0, nullptr, l == 0 ? &e0 : l == 19 ? &e1 : nullptr);
      clFinish(q);
      cl_ulong t0 = 0, t1 = 0;
      clGetEventProfilingInfo(e0, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr);
      clGetEventProfilingInfo(e1, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr);
      if (rep > 0) ms.push_back((t1 - t0) / 20.0 / 1e6);  // the first is a warm-up
      clReleaseEvent(e0), clReleaseEvent(e1);
    }
    std::sort(ms.begin(), ms.end());
    clEnqueueReadBuffer(q, bdx, CL_TRUE, 0, nx * 4, out.data(), 0, nullptr, nullptr);
    if (a == 3) first = out;
    const bool same = std::memcmp(first.data(), out.data(), nx * 4) == 0;
    std::printf("[%s] %s: median %.4f ms (min %.4f, max %.4f), d_x %s the first build's\n", argv[a], regs.c_str(), ms[ms.size() / 2], ms.front(),
                ms.back(), same ? "the same bits as" : "DIFFERS from");
    clReleaseKernel(kern);
    clReleaseProgram(prog);
  }
}
