// Times kernels with max_pool_backward_blocks' signature (x, d_y, d_x, n, c, h, w, kh, kw, sh, sw, ph, pw)
// on ResNet's stem pool backward (n=32 c=64 112x112, 3x3/2/1) on the first GPU, interleaved over
// ROUNDS rounds: the median of each kernel's timings of 20 back-to-back launches (event-timed), its
// registers (-cl-nv-verbose), and whether its d_x has the first kernel's bits. Diagnostic kernels
// (parts of the work left out) are wrong on purpose, which is why this is not `plumbline bench`.
// Global size: (roundup(cdiv(56, POOL_BI) * cdiv(56, POOL_BJ), POOL_BX), n * c), local (POOL_BX, 1),
// or with -DPOOL_ROWS=R (a work-group a band of R block rows of a plane): (POOL_BX * cdiv(56, R), n * c).
// usage: probe FILE.cl ROUNDS "[OTHER.cl:]NAME|DEFINES" ...
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
static int def(const std::string& d, const char* name, int dflt) {
  const size_t at = d.find(std::string("-D") + name + "=");
  return at == std::string::npos ? dflt : std::atoi(d.c_str() + at + 3 + std::strlen(name));
}
int main(int argc, char** argv) {
  if (argc < 4) return 2;
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str(), dir = std::string(argv[1]).substr(0, std::string(argv[1]).rfind('/'));
  const int rounds = std::atoi(argv[2]);
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  cl_device_id dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  const bool cpu = std::getenv("PROBE_ANY") != nullptr;
  for (cl_uint i = 0; i < np && !dev && cpu; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  if (!dev) { std::puts("no GPU"); return 1; }
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  const int n = cpu ? 2 : 32, c = 64, h = 112, w = 112, k = 3, s = 2, p = 1;
  const size_t nx = size_t(n) * c * h * w, ny = size_t(n) * c * 56 * 56;
  std::vector<float> x(nx), dy(ny), first(nx), out(nx);
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> d(-8, 8);  // ties, as in plumbline's integers distribution
  for (auto& v : x) v = float(d(gen));
  for (auto& v : dy) v = float(d(gen)) / 8;
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nx * 4, x.data(), &err);
  cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ny * 4, dy.data(), &err);
  cl_mem bdx = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nx * 4, nullptr, &err);
  struct K { std::string name, defs, regs; cl_kernel kern; size_t global[2], local[2]; std::vector<double> ms; };
  std::vector<K> ks;
  for (int a = 3; a < argc; ++a) {
    K kk;
    const std::string arg = argv[a];
    kk.name = arg.substr(0, arg.find('|'));
    std::string file_src = src, file_dir = dir;  // "FILE.cl:NAME|DEFINES" builds NAME from another file
    if (kk.name.find(':') != std::string::npos) {
      const std::string path = kk.name.substr(0, kk.name.find(':'));
      kk.name = kk.name.substr(kk.name.find(':') + 1);
      std::ifstream g(path);
      std::stringstream gs;
      gs << g.rdbuf();
      file_src = gs.str(), file_dir = path.substr(0, path.rfind('/'));
    }
    kk.defs = arg.find('|') == std::string::npos ? "" : arg.substr(arg.find('|') + 1);
    const std::string opts = std::string(cpu ? "" : "-cl-nv-verbose ") + "-I" + file_dir + " -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 " + kk.defs;
    const char* sp = file_src.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &sp, nullptr, &err);
    err = clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr);
    size_t ln = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &ln);
    std::string log(ln, '\0');
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, ln, log.data(), nullptr);
    if (err) { std::printf("%s [%s]: build failed %d\n%s\n", kk.name.c_str(), kk.defs.c_str(), err, log.c_str()); return 1; }
    const size_t at = log.find("entry function '" + kk.name + "'");
    kk.regs = "?";
    if (at != std::string::npos) {
      const size_t u = log.find("Used ", at);
      if (u != std::string::npos) kk.regs = log.substr(u, log.find(',', u) - u);
      const size_t st = log.find("bytes stack frame", at);
      if (st != std::string::npos && log.compare(st - 2, 1, "0") != 0) kk.regs += " +stack";
    }
    kk.kern = clCreateKernel(prog, kk.name.c_str(), &err);
    if (err) { std::printf("%s: no such kernel\n", kk.name.c_str()); return 1; }
    int ints[] = {n, c, h, w, k, k, s, s, p, p};
    clSetKernelArg(kk.kern, 0, sizeof bx, &bx);
    clSetKernelArg(kk.kern, 1, sizeof by, &by);
    clSetKernelArg(kk.kern, 2, sizeof bdx, &bdx);
    for (int i = 0; i < 10; ++i) clSetKernelArg(kk.kern, 3 + i, sizeof(int), &ints[i]);
    const int wg = def(kk.defs, "POOL_BX", 128), bi = def(kk.defs, "POOL_BI", 1), bj = def(kk.defs, "POOL_BJ", 4), rows = def(kk.defs, "POOL_ROWS", 0);
    const size_t items = size_t((56 + bi - 1) / bi) * ((56 + bj - 1) / bj);
    kk.global[0] = rows ? size_t(wg) * ((56 + rows - 1) / rows) : (items + wg - 1) / wg * wg;
    kk.global[1] = size_t(n) * c;
    kk.local[0] = wg, kk.local[1] = 1;
    ks.push_back(kk);
  }
  std::vector<std::string> same(ks.size(), "");
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < ks.size(); ++i) {
      K& kk = ks[i];
      cl_uint zero = 0xdeadbeef;
      clEnqueueFillBuffer(q, bdx, &zero, 4, 0, nx * 4, 0, nullptr, nullptr);
      for (int rep = 0; rep < 4; ++rep) {
        cl_event e0 = nullptr, e1 = nullptr;
        const int launches = cpu ? 1 : 20;
        for (int l = 0; l < launches; ++l)
          clEnqueueNDRangeKernel(q, kk.kern, 2, nullptr, kk.global, kk.local, 0, nullptr, l == 0 ? &e0 : nullptr);
        clEnqueueMarkerWithWaitList(q, 0, nullptr, &e1);
        clFinish(q);
        cl_ulong t0 = 0, t1 = 0;
        clGetEventProfilingInfo(e0, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr);
        clGetEventProfilingInfo(e1, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr);
        if (rep > 0 || r > 0) kk.ms.push_back((t1 - t0) / double(launches) / 1e6);
        clReleaseEvent(e0), clReleaseEvent(e1);
      }
      if (r == 0) {
        clEnqueueReadBuffer(q, bdx, CL_TRUE, 0, nx * 4, out.data(), 0, nullptr, nullptr);
        if (i == 0) first = out;
        same[i] = std::memcmp(first.data(), out.data(), nx * 4) == 0 ? "same bits" : "DIFFERS";
      }
    }
  for (size_t i = 0; i < ks.size(); ++i) {
    auto v = ks[i].ms;
    std::sort(v.begin(), v.end());
    std::printf("%-34s %-44s %-22s median %.4f ms (min %.4f max %.4f, %zu) d_x %s\n", ks[i].name.c_str(), ks[i].defs.c_str(), ks[i].regs.c_str(),
                v[v.size() / 2], v.front(), v.back(), v.size(), same[i].c_str());
  }
}
