#pragma once
// OpenCL devices and the selectors that name them. A selector is stable across runs:
//   <platform>:<index>  e.g. pocl:0, nvidia:0 (index among that platform's devices)
//   <platform>          every device of that platform
//   all                 every device found
// and several can be joined with commas. The PLUMBLINE_DEVICE environment variable gives the default.
#include <cstdint>
#include <string>
#include <vector>

#include "opencl/cl.hpp"

namespace plumbline::ocl {

struct DeviceInfo {
  std::string selector;        // "pocl:0"
  std::string platform_short;  // "pocl", "nvidia", or the platform name's first word in lower case
  std::string platform_name, platform_version;
  std::string name, vendor, driver_version, device_version;
  uint32_t compute_units = 0, clock_mhz = 0;
  bool is_gpu = false;
  std::string type;  // CL_DEVICE_TYPE in a word: "cpu", "gpu", "accelerator" or "other" (a plan's `devices` line); "simulator" for Oclgrind
  uint64_t global_mem_bytes = 0, local_mem_bytes = 0, max_alloc_bytes = 0;
  size_t max_work_group_size = 0;
  std::vector<size_t> max_work_item_sizes;  // per dimension
  uint32_t base_addr_align_bits = 0;
  bool double_support = false;
  // What a plan's `needs` line may ask for (plans::kDeviceFeatures) that this device has: "nvidia_sm80"
  // on NVIDIA's OpenCL at compute capability 8.0 or later, "nvidia_sm90a" at exactly 9.0 (Hopper, whose
  // wgmma no other generation has; read through cl_nv_device_attribute_query), "local_mem_48k" where
  // CL_DEVICE_LOCAL_MEM_SIZE is 48 KiB or more.
  std::vector<std::string> features;
  // The architecture, where the driver names one: "NVIDIA sm_90" (compute capability 9.0: the H100 and
  // the H200 alike) on NVIDIA's OpenCL; empty elsewhere. A device without a tuning entry of its own
  // takes one of a device of the same architecture (plans/tuning.hpp).
  std::string architecture;
  cl::Device device;
  cl::Platform platform;
};

// Every device of every platform. Throws Error with a remedy when no OpenCL driver is registered.
std::vector<DeviceInfo> list_devices();
// The devices a selector names; Error listing the available selectors when it names none.
std::vector<DeviceInfo> select_devices(const std::string& selector);
// The selector from PLUMBLINE_DEVICE, or "all".
std::string default_selector();

}  // namespace plumbline::ocl
