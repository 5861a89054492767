// Builds one OpenCL kernel with the given options on the first GPU and prints the build log (with
// NVIDIA's -cl-nv-verbose: ptxas's registers and spills) and the kernel's work-group limits.
// usage: kinfo FILE.cl KERNEL "OPTIONS"
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  if (argc < 4) return 2;
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  cl_device_id dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  if (!dev) { std::puts("no GPU"); return 1; }
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  const char* s = src.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
  err = clBuildProgram(prog, 1, &dev, argv[3], nullptr, nullptr);
  size_t n = 0;
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::vector<char> log(n + 1);
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  std::printf("build %d\n%s\n", err, log.data());
  if (err) return 1;
  cl_kernel k = clCreateKernel(prog, argv[2], &err);
  size_t wg = 0;
  cl_ulong priv = 0, loc = 0;
  clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr);
  clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, nullptr);
  clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof loc, &loc, nullptr);
  std::printf("%s: work-group limit %zu, private %llu B, local %llu B\n", argv[2], wg, (unsigned long long)priv, (unsigned long long)loc);
}
