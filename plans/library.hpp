#pragma once
// Our launch plans: every opencl/kernels/*.plan file, read once. An operator's variants all live in one
// plan file, in the order of that file; the first whose condition holds is the one that runs unless a
// variant is asked for by name. Each operator has a variant named `seed`: version 1's kernel on the
// default ABI (docs/kernel-abi.md), which a user's kernel given with only --kernel-file/--entry takes.
#include <string>
#include <vector>

#include "plans/plan.hpp"

namespace plumbline::plans {

// Folder of the .cl sources and their plans: PLUMBLINE_KERNEL_DIR, else the source tree's opencl/kernels.
std::string kernel_dir();
// Where an installed copy keeps its data: DIR/kernels and DIR/tuning become the defaults of kernel_dir()
// and tuning_dir() (PLUMBLINE_KERNEL_DIR and PLUMBLINE_TUNING_DIR still override them). The installed
// program calls it with <bin>/../share/plumbline, the installed testing helpers with the prefix's.
void set_data_dir(const std::string& dir);
std::string default_kernel_dir();
std::string default_tuning_dir();

// Our variants of `op` (empty when it has none), in plan order. Error (FILE:LINE) when a plan file is
// malformed.
const std::vector<Variant>& our_variants(const std::string& op);
std::vector<std::string> ops_with_plans();  // in the registry's order

// The name of the default ABI's variant.
inline constexpr const char* kAbiVariant = "seed";

// The first variant that serves and prefers p, else the first that serves it, among the exact ones
// first (a variant in another numeric mode runs only where none of them serves p); Error listing the
// conditions when none does.
const Variant& select_variant(const std::vector<Variant>& variants, const Problem& p);
// The variant named `name`; Error listing the names when there is none.
const Variant& find_variant(const std::vector<Variant>& variants, const std::string& name, const std::string& op);

}  // namespace plumbline::plans
