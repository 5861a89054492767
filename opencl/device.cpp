#include "opencl/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <pthread.h>
#include <sstream>

#include "core/error.hpp"
#include "opencl/oclgrind.hpp"

namespace plumbline::ocl {

namespace {

std::string short_name(const std::string& platform) {
  if (platform.find("Portable Computing Language") != std::string::npos) return "pocl";
  std::string lower;
  for (char c : platform) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("nvidia") != std::string::npos) return "nvidia";
  if (lower.find("intel") != std::string::npos) return "intel";
  if (lower.find("amd") != std::string::npos) return "amd";
  std::string word;
  for (char c : lower) {
    if (!std::isalnum(static_cast<unsigned char>(c))) break;
    word += c;
  }
  return word.empty() ? "platform" : word;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  return s;
}

// CPU drivers run a work-group's work-items on a worker thread they create, and PoCL keeps each
// work-item's private values that live across a barrier in arrays on that thread's stack: a GEMM tile
// of 512 work-items with 128 accumulators each needs more than glibc's default 8 MiB, and overflowed
// into the next thread's stack (wrong numbers or a segfault, one run in two, at 2 threads; never at
// one, or with 64 MiB). So the threads the driver creates get a 64 MiB default stack (address space;
// pages are committed only when touched), set before the first call into OpenCL creates them.
void reserve_driver_thread_stacks() {
  static const bool done = [] {
    pthread_attr_t attr;
    if (pthread_getattr_default_np(&attr) != 0) return false;
    size_t size = 0;
    constexpr size_t wanted = size_t{64} << 20;
    const bool ok = pthread_attr_getstacksize(&attr, &size) == 0 &&
                    (size >= wanted || (pthread_attr_setstacksize(&attr, wanted) == 0 && pthread_setattr_default_np(&attr) == 0));
    pthread_attr_destroy(&attr);
    return ok;
  }();
  (void)done;
}

}  // namespace

std::vector<DeviceInfo> list_devices() {
  reserve_driver_thread_stacks();
  note_opencl_started();
  std::vector<cl::Platform> platforms;
  cl_int status = CL_SUCCESS;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    status = e.err();
  }
  if (status == -1001 || (status == CL_SUCCESS && platforms.empty()))
    throw Error(
        "no OpenCL platform found: no driver is registered with the ICD loader. Install one (on Debian: "
        "apt-get install pocl-opencl-icd) or register it in /etc/OpenCL/vendors (for NVIDIA: echo "
        "/usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd)");
  if (status != CL_SUCCESS) fail(status, "listing OpenCL platforms");

  std::vector<DeviceInfo> out;
  std::map<std::string, int> next_index;
  for (auto& platform : platforms) {
    std::vector<cl::Device> devices;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error& e) {
      if (e.err() == CL_DEVICE_NOT_FOUND) continue;
      fail(e.err(), "listing the devices of an OpenCL platform");
    }
    for (auto& d : devices) {
      DeviceInfo info;
      info.platform = platform;
      info.device = d;
      call("reading device information", [&] {
        info.platform_name = trim(platform.getInfo<CL_PLATFORM_NAME>());
        info.platform_version = trim(platform.getInfo<CL_PLATFORM_VERSION>());
        info.name = trim(d.getInfo<CL_DEVICE_NAME>());
        info.vendor = trim(d.getInfo<CL_DEVICE_VENDOR>());
        info.driver_version = trim(d.getInfo<CL_DRIVER_VERSION>());
        info.device_version = trim(d.getInfo<CL_DEVICE_VERSION>());
        info.compute_units = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
        info.clock_mhz = d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
        const cl_device_type type = d.getInfo<CL_DEVICE_TYPE>();
        info.is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
        info.type = info.is_gpu ? "gpu" : (type & CL_DEVICE_TYPE_CPU) ? "cpu" : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator" : "other";
        // Oclgrind calls itself every type at once; it is a simulator, no GPU.
        if (info.platform_name.rfind("Oclgrind", 0) == 0) info.is_gpu = false, info.type = "simulator";
        info.global_mem_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
        info.local_mem_bytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
        info.max_alloc_bytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
        info.max_work_group_size = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
        info.max_work_item_sizes = d.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
        info.base_addr_align_bits = d.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
        info.double_support = d.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
        if (info.local_mem_bytes >= 49152) info.features.push_back("local_mem_48k");
        if (d.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_device_attribute_query") != std::string::npos) {
          constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;  // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
          constexpr cl_device_info kComputeCapabilityMinorNv = 0x4001;  // CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV
          cl_uint major = 0, minor = 0;
          if (clGetDeviceInfo(d(), kComputeCapabilityMajorNv, sizeof major, &major, nullptr) == CL_SUCCESS &&
              clGetDeviceInfo(d(), kComputeCapabilityMinorNv, sizeof minor, &minor, nullptr) == CL_SUCCESS && major > 0) {
            if (major >= 8) info.features.push_back("nvidia_sm80");
            // sm_90a's instructions (wgmma) run on compute capability 9.0 only, not on later GPUs.
            if (major == 9 && minor == 0) info.features.push_back("nvidia_sm90a");
            info.architecture = "NVIDIA sm_" + std::to_string(major) + std::to_string(minor);
          }
        }
        return 0;
      });
      info.platform_short = short_name(info.platform_name);
      info.selector = info.platform_short + ":" + std::to_string(next_index[info.platform_short]++);
      out.push_back(std::move(info));
    }
  }
  if (out.empty()) throw Error("OpenCL platforms were found but none has a device");
  return out;
}

std::vector<DeviceInfo> select_devices(const std::string& selector) {
  if (names_oclgrind(selector)) register_oclgrind();
  const std::vector<DeviceInfo> all = list_devices();
  std::vector<DeviceInfo> out;
  std::stringstream ss(selector);
  std::string part;
  while (std::getline(ss, part, ',')) {
    bool matched = false;
    for (const auto& d : all) {
      // "all" is every real device: a simulator runs when it is named (oclgrind, oclgrind:0).
      if ((part == "all" && d.type != "simulator") || part == d.selector || part == d.platform_short) {
        matched = true;
        if (std::none_of(out.begin(), out.end(), [&](const DeviceInfo& o) { return o.selector == d.selector; })) out.push_back(d);
      }
    }
    if (!matched) {
      std::string known;
      for (const auto& d : all) known += " " + d.selector + " (" + d.name + ")";
      throw Error("device selector '" + part + "' matches no device; available:" + known + ", or all");
    }
  }
  if (out.empty()) throw Error("empty device selector");
  return out;
}

std::string default_selector() {
  const char* env = std::getenv("PLUMBLINE_DEVICE");
  return env && *env ? env : "all";
}

}  // namespace plumbline::ocl
