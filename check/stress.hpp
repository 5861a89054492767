#pragma once
// Stress problems for a GPU (`plumbline check` adds them there; --no-stress skips them): a race that
// needs many work-groups in flight at once, or a tile's loop run many times, hides on the small
// problems of the random cases. For each variant one problem that fills the device, grown from a drawn
// one: at least four waves of work-groups (the device's compute units, each holding as many
// work-groups as 2048 work-items allow), and the longest of its loops (an attribute the launch does not
// follow: a GEMM's depth) at least 32 iterations (of the variant's largest tile, where its plan has
// tiles), as far as 64 MiB of tensors, the device's memory and the check's budget allow. GEMMs and
// convolutions are checked on a sample of their outputs (check/sampling.hpp); on a GPU every case is
// replayed (two launches, their bits compared).
#include <string>
#include <vector>

#include "check/kernel_check.hpp"
#include "opencl/device.hpp"

namespace plumbline {

// The reference FLOPs of one slice of a stress problem's sampled check (sampled_check_cost): a slice
// runs on one thread, and this is about a second of one host core.
inline constexpr double kStressSliceFlops = 1e9;

// How many waves of work-groups p's launch takes on the device (its largest step's).
double waves(const plans::Variant& v, const Problem& p, const ocl::DeviceInfo& device);

// One stress problem for each variant (its first storage format), and a line in `notes` for each that
// fell short of the waves or the loop length (the limits reached, named).
std::vector<KernelCase> stress_cases(const std::vector<plans::Variant>& variants, const std::string& op, const ocl::DeviceInfo& device, uint64_t seed,
                                     std::vector<std::string>* notes = nullptr);

}  // namespace plumbline
