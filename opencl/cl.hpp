#pragma once
// The Khronos C++ bindings (Debian's opencl-clhpp-headers), pinned to OpenCL 1.2 so that every
// driver we meet (PoCL, NVIDIA) accepts what we call.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <string>

namespace plumbline::ocl {

// "CL_OUT_OF_RESOURCES (-5)": every OpenCL status by name.
std::string error_name(cl_int code);

// Runs f(); an OpenCL failure becomes an Error that says what was being done and names the code
// (with a hint for the codes that mean a lost device or a missing driver).
template <class F>
auto call(const std::string& doing, F&& f) -> decltype(f());

[[noreturn]] void fail(cl_int code, const std::string& doing);

template <class F>
auto call(const std::string& doing, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const cl::Error& e) {
    fail(e.err(), doing);
  }
}

}  // namespace plumbline::ocl
