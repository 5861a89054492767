#pragma once
// A tensor's buffer in its storage format (float32, f16 or bf16: core/dtype.hpp; the host side always
// sees floats) with guard zones on both sides. Kernels see only the interior (a sub-buffer); the
// guards hold a fixed NaN pattern and are checked after each launch, so a write past either end is
// caught and reported with the buffer's name. Outputs are filled with a poison NaN pattern before a
// launch, so an element the kernel never wrote is caught too.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "opencl/cl.hpp"

namespace plumbline::ocl {

inline constexpr uint32_t kPoisonBits = 0x7FDEAD01u;  // a quiet NaN no arithmetic produces
inline constexpr uint16_t kPoisonBitsF16 = 0x7EADu;   // the same in f16 (quiet bit and a payload)
inline constexpr uint16_t kPoisonBitsBF16 = 0x7FADu;  // and in bf16
// Guard zones hold a quiet NaN of their own per buffer name (guard_bits): a kernel that reads past
// one buffer and writes the value past another (NaN arithmetic keeps the payload) still changes the
// second buffer's guard. Mutation testing found the case where one shared pattern hid it.
uint32_t guard_bits(const std::string& name);

// A kernel the watchdog gave up on may still be running in host memory (a CPU driver's threads go on
// with it): from then on fenced host memory is never unmapped, so that the abandoned kernel writes into
// memory that is still its own instead of faulting this process while it reports the hang.
void keep_fenced_memory_mapped();

class GuardedBuffer {
 public:
  // `fenced`: the buffer lives in host memory between inaccessible pages (a device that computes in
  // host memory, such as PoCL's): a write far past its guards faults at once, in the case that made it,
  // instead of corrupting the host's heap. `align`: the device's base address alignment in bytes.
  GuardedBuffer(cl::Context& context, cl::CommandQueue& queue, std::string name, int64_t elements, int64_t guard, DType dtype = DType::F32,
                bool fenced = false, size_t align = 128);

  const std::string& name() const { return name_; }
  int64_t size() const { return elements_; }
  DType dtype() const { return dtype_; }
  const cl::Buffer& cl() const { return interior_; }

  void upload(const std::vector<float>& values);  // guards + values (each a value of the format: Error if not)
  bool holds(const std::vector<float>& values);   // the interior is exactly these values' words
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
  void encode_into(const std::vector<float>& values, uint8_t* bytes) const;  // the words of the format
  void fill_guards(uint8_t* whole) const;                                    // the guards of a whole buffer's bytes
  void write_whole(const std::vector<uint8_t>& whole);
  std::vector<float> decode(const std::vector<uint8_t>& bytes) const;  // the interior's words as floats
  std::vector<uint8_t> read_interior();
  uint32_t word(const std::vector<uint8_t>& bytes, int64_t i) const;
  uint32_t poison_word() const;

  std::string name_;
  int64_t elements_, guard_;
  uint32_t guard_bits_;
  DType dtype_;
  size_t width_;  // bytes per element
  cl::CommandQueue queue_;
  std::shared_ptr<void> fenced_memory_;  // released after the buffers that use it (declared before them)
  cl::Buffer whole_, interior_;
};

}  // namespace plumbline::ocl
