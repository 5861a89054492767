#pragma once
// Oclgrind (Debian's oclgrind package): an OpenCL device simulator that runs every instruction of every
// work-item and reports data races in local and global memory, values read before anything wrote them,
// barriers that not every work-item of a work-group reaches, and accesses outside every buffer. These
// are the bugs that a CPU driver never shows (PoCL runs a work-group's work-items region by region, so
// a missing barrier still gives the right numbers) and a GPU shows once in many runs.
//
// plumbline registers it as one more device, `oclgrind:0`, through a private ICD vendors folder that
// also lists the machine's own drivers (OCL_ICD_VENDORS), rather than running a process under the
// `oclgrind` command, which puts every OpenCL call of the process on the simulator: so selectors,
// isolated children, plans and repro lines work as on any device, and the report of each launch, read
// from the log Oclgrind writes for the runtime's context (OCLGRIND_LOG), becomes that case's verdict.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace plumbline::ocl {

struct DeviceInfo;

// Whether a device selector (PLUMBLINE_DEVICE, --device) names Oclgrind.
bool names_oclgrind(const std::string& selector);

// Makes Oclgrind a device of this process and of the processes it starts: writes the private vendors
// folder, points OCL_ICD_VENDORS at it and switches Oclgrind's detectors on. Must come before this
// process's first OpenCL call (Error otherwise, and where Oclgrind is not installed, naming the package).
void register_oclgrind();
// Called by the device listing: after it, registering is too late.
void note_opencl_started();

bool is_oclgrind(const DeviceInfo& device);

// One diagnostic of Oclgrind's log.
struct SanitizerReport {
  // The verdict it gives a case: "race", "uninitialized", "barrier-divergence", "out-of-bounds", or
  // "sanitizer" for another error Oclgrind reports.
  std::string verdict;
  std::string headline;  // its first line: "Read-write data race at local memory address 0x1000000000084"
  std::string kernel;
  std::string memory;  // "global", "local", "private" or "constant" where it names an address
  uint64_t address = 0;
  // Where, for each entity it names (a race has two): the source line (of the file as the program's
  // `#line` directives name it: its base name in Oclgrind's debug information) and who was there.
  struct Site {
    std::string file;  // "rb_gemm.cl"; empty where Oclgrind gives no line
    int line = 0;
    std::string access;  // "store", "load", "atomic" or empty
    std::string who;     // "work-item (1,0,0) of work-group (0,0,0)", or a note ("Only 36 out of 64 work-items executed barrier")
    std::string group;   // "(0,0,0)": its work-group, where it names one
  };
  std::vector<Site> sites;
};

// The diagnostics in a piece of Oclgrind's log, in order.
std::vector<SanitizerReport> parse_oclgrind_log(const std::string& text);

// A case's message for a report: what it found and where, e.g. "read-write data race in local memory in
// kernel rb_gemm: line 37 of rb_gemm.cl `As[r][c] = ...` (a store by work-item (1,0,0) of work-group
// (0,0,0)) against line 46 of rb_gemm.cl `const float av = ...` (a load by work-item (0,0,0) of
// work-group (0,0,0))". `source_line(file, line)` gives a line's text ("" where unknown).
std::string describe(const SanitizerReport& report, const std::function<std::string(const std::string&, int)>& source_line = {});

}  // namespace plumbline::ocl
