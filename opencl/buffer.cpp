#include "opencl/buffer.hpp"

#include <algorithm>
#include <cstring>

namespace plumbline::ocl {

uint32_t guard_bits(const std::string& name) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return 0xFFC00000u | (h & 0x003FFFFEu) | 1u;  // sign, exponent all ones, quiet bit, non-zero payload
}

GuardedBuffer::GuardedBuffer(cl::Context& context, cl::CommandQueue& queue, std::string name, int64_t elements, int64_t guard)
    : name_(std::move(name)), elements_(elements), guard_(guard), guard_bits_(guard_bits(name_)), queue_(queue) {
  const size_t bytes = static_cast<size_t>(elements_ + 2 * guard_) * 4;
  whole_ = call("allocating buffer '" + name_ + "' (" + std::to_string(bytes) + " bytes)",
                [&] { return cl::Buffer(context, CL_MEM_READ_WRITE, bytes); });
  cl_buffer_region region{static_cast<size_t>(guard_) * 4, static_cast<size_t>(elements_) * 4};
  interior_ = call("creating the interior of buffer '" + name_ + "'",
                   [&] { return whole_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region); });
}

void GuardedBuffer::write_guards() {
  const std::vector<uint32_t> guard(static_cast<size_t>(guard_), guard_bits_);
  for (const int64_t first : {int64_t{0}, guard_ + elements_})
    call("writing the guards of buffer '" + name_ + "'", [&] {
      return queue_.enqueueWriteBuffer(whole_, CL_TRUE, static_cast<size_t>(first) * 4, guard.size() * 4, guard.data());
    });
}

std::vector<uint32_t> GuardedBuffer::read_guard(int64_t first_element) {
  std::vector<uint32_t> bits(static_cast<size_t>(guard_));
  call("reading the guards of buffer '" + name_ + "'", [&] {
    return queue_.enqueueReadBuffer(whole_, CL_TRUE, static_cast<size_t>(first_element) * 4, bits.size() * 4, bits.data());
  });
  return bits;
}

void GuardedBuffer::upload(const std::vector<float>& values) {
  if (static_cast<int64_t>(values.size()) != elements_)
    throw std::logic_error("upload of " + std::to_string(values.size()) + " values into buffer '" + name_ + "' of " +
                           std::to_string(elements_));
  write_guards();
  call("writing buffer '" + name_ + "'", [&] { return queue_.enqueueWriteBuffer(interior_, CL_TRUE, 0, values.size() * 4, values.data()); });
}

void GuardedBuffer::poison() {
  write_guards();
  // Written from the host in pieces of at most 256 MiB. (clEnqueueFillBuffer would move nothing across
  // the bus, but NVIDIA's driver 580 loses the queue filling a buffer of several GB, even in pieces.)
  const std::vector<uint32_t> piece(static_cast<size_t>(std::min<int64_t>(elements_, int64_t{1} << 26)), kPoisonBits);
  for (int64_t first = 0; first < elements_; first += static_cast<int64_t>(piece.size()))
    call("poisoning buffer '" + name_ + "'", [&] {
      const size_t count = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(piece.size()), elements_ - first));
      return queue_.enqueueWriteBuffer(interior_, CL_TRUE, static_cast<size_t>(first) * 4, count * 4, piece.data());
    });
}

std::vector<float> GuardedBuffer::download() {
  std::vector<float> values(static_cast<size_t>(elements_));
  call("reading buffer '" + name_ + "'", [&] {
    return queue_.enqueueReadBuffer(interior_, CL_TRUE, 0, values.size() * 4, values.data());
  });
  return values;
}

std::vector<std::string> GuardedBuffer::inspect(bool expect_written, std::vector<float>* interior) {
  const std::vector<uint32_t> head = read_guard(0), tail = read_guard(guard_ + elements_);
  std::vector<std::string> problems;
  // Before the start: report the damaged element nearest the buffer (the likeliest culprit).
  int64_t before = 0, nearest = 0;
  for (int64_t i = 0; i < guard_; ++i)
    if (head[static_cast<size_t>(i)] != guard_bits_) ++before, nearest = guard_ - i;
  if (before)
    problems.push_back("buffer '" + name_ + "': written before its start (" + std::to_string(before) +
                       " guard elements changed, the nearest at index -" + std::to_string(nearest) + ")");
  int64_t after = 0, first_after = -1;
  for (int64_t i = 0; i < guard_; ++i)
    if (tail[static_cast<size_t>(i)] != guard_bits_) {
      ++after;
      if (first_after < 0) first_after = elements_ + i;
    }
  if (after)
    problems.push_back("buffer '" + name_ + "' of " + std::to_string(elements_) + " elements: written past its end (" +
                       std::to_string(after) + " guard elements changed, the first at index " +
                       std::to_string(first_after) + ")");
  if (expect_written) {
    std::vector<float> own;
    std::vector<float>& values = interior ? *interior : own;
    values = download();
    int64_t unwritten = 0, first = -1;
    for (int64_t i = 0; i < elements_; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &values[static_cast<size_t>(i)], 4);
      if (bits == kPoisonBits) {
        ++unwritten;
        if (first < 0) first = i;
      }
    }
    if (unwritten)
      problems.push_back("buffer '" + name_ + "': " + std::to_string(unwritten) + " of " + std::to_string(elements_) +
                         " elements left unwritten (still poisoned), the first at index " + std::to_string(first));
  }
  return problems;
}

}  // namespace plumbline::ocl
