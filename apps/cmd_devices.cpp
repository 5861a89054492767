// `plumbline devices`: every OpenCL device with its selector and the properties that matter here.
#include <cstdio>
#include <iostream>

#include "apps/commands.hpp"
#include "opencl/device.hpp"

namespace plumbline::apps {

namespace {

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

void add_devices_command(CLI::App& app, Context& ctx) {
  auto selector = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("devices", "List the OpenCL devices and their selectors (for --device / PLUMBLINE_DEVICE)");
  cmd->add_option("--device", *selector, "only the devices this selector names (all, pocl, nvidia:0, ...)");
  cmd->callback([selector] {
    for (const auto& d : selector->empty() ? ocl::list_devices() : ocl::select_devices(*selector)) {
      std::cout << d.selector << "  " << d.name << "\n"
                << "    platform:        " << d.platform_name << " (" << d.platform_version << ")\n"
                << "    driver:          " << d.driver_version << ", " << d.device_version << "\n"
                << "    compute units:   " << d.compute_units << "\n"
                << "    global memory:   " << mib(d.global_mem_bytes) << " (largest allocation " << mib(d.max_alloc_bytes) << ")\n"
                << "    local memory:    " << d.local_mem_bytes / 1024 << " KiB\n"
                << "    work-group size: up to " << d.max_work_group_size << "\n"
                << "    double:          " << (d.double_support ? "yes" : "no") << "\n";
      std::string features;
      for (const auto& f : d.features) features += (features.empty() ? "" : " ") + f;
      std::cout << "    features:        " << (features.empty() ? "none" : features) << "\n";
      std::cout << "    architecture:    " << (d.architecture.empty() ? "not named by its driver (its own tuning entries only)" : d.architecture)
                << "\n";
    }
  });
}

}  // namespace plumbline::apps
