#pragma once
// A float buffer with guard zones on both sides. Kernels see only the interior (a sub-buffer); the
// guards hold a fixed NaN pattern and are checked after each launch, so a write past either end is
// caught and reported with the buffer's name. Outputs are filled with a poison NaN pattern before a
// launch, so an element the kernel never wrote is caught too.
#include <cstdint>
#include <string>
#include <vector>

#include "opencl/cl.hpp"

namespace plumbline::ocl {

inline constexpr uint32_t kPoisonBits = 0x7FDEAD01u;  // a quiet NaN no arithmetic produces
// Guard zones hold a quiet NaN of their own per buffer name (guard_bits): a kernel that reads past
// one buffer and writes the value past another (NaN arithmetic keeps the payload) still changes the
// second buffer's guard. Mutation testing found the case where one shared pattern hid it.
uint32_t guard_bits(const std::string& name);

class GuardedBuffer {
 public:
  GuardedBuffer(cl::Context& context, cl::CommandQueue& queue, std::string name, int64_t elements, int64_t guard);

  const std::string& name() const { return name_; }
  int64_t size() const { return elements_; }
  const cl::Buffer& cl() const { return interior_; }

  void upload(const std::vector<float>& values);  // guards + values
  void poison();                                  // guards + poison in every element
  std::vector<float> download();                  // the interior

  // After a launch: what went wrong with this buffer, one sentence each (empty when nothing did).
  // Damaged guards are always reported; elements still holding poison when expect_written, which
  // reads the interior once (into *interior when given: the caller's download).
  std::vector<std::string> inspect(bool expect_written, std::vector<float>* interior = nullptr);

 private:
  // Only the guards and the interior move: a 10 GB tensor is copied across the bus once each way.
  void write_guards();
  std::vector<uint32_t> read_guard(int64_t first_element);

  std::string name_;
  int64_t elements_, guard_;
  uint32_t guard_bits_;
  cl::CommandQueue queue_;
  cl::Buffer whole_, interior_;
};

}  // namespace plumbline::ocl
