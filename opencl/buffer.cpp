#include "opencl/buffer.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace plumbline::ocl {

uint32_t guard_bits(const std::string& name) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return 0xFFC00000u | (h & 0x003FFFFEu) | 1u;  // sign, exponent all ones, quiet bit, non-zero payload
}

// A 16-bit guard word: the top half of the float one is a NaN with a payload in f16 and bf16 alike
// (sign, exponent all ones, a non-zero mantissa).
static uint32_t guard_word(uint32_t bits32, size_t width) { return width == 4 ? bits32 : (bits32 >> 16); }

// Host memory of `bytes` between two inaccessible fences of kFence bytes each, its end `align`-aligned
// as close to the far fence as the alignment allows: a run past the end meets the fence within `align`.
static constexpr size_t kFence = size_t{1} << 20;
static std::atomic<bool> keep_mapped{false};
void keep_fenced_memory_mapped() { keep_mapped = true; }
static std::shared_ptr<void> fenced_allocation(size_t bytes, size_t align, void** data) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t inner = (bytes + align + page - 1) / page * page, total = inner + 2 * kFence;
  void* base = ::mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) throw Error("allocating " + std::to_string(total) + " bytes of fenced host memory failed");
  char* rw = static_cast<char*>(base) + kFence;
  if (::mprotect(rw, inner, PROT_READ | PROT_WRITE) != 0) {
    ::munmap(base, total);
    throw Error("making fenced host memory writable failed");
  }
  const uintptr_t end = reinterpret_cast<uintptr_t>(rw + inner);
  *data = reinterpret_cast<void*>((end - bytes) / align * align);
  return std::shared_ptr<void>(base, [total](void* p) {
    if (!keep_mapped) ::munmap(p, total);
  });
}

GuardedBuffer::GuardedBuffer(cl::Context& context, cl::CommandQueue& queue, std::string name, int64_t elements, int64_t guard, DType dtype,
                             bool fenced, size_t align)
    : name_(std::move(name)),
      elements_(elements),
      guard_(guard),
      guard_bits_(guard_word(guard_bits(name_), static_cast<size_t>(bytes_of(dtype)))),
      dtype_(dtype),
      width_(static_cast<size_t>(bytes_of(dtype))),
      queue_(queue) {
  const size_t bytes = static_cast<size_t>(elements_ + 2 * guard_) * width_;
  void* host = nullptr;
  if (fenced) fenced_memory_ = fenced_allocation(bytes, std::max<size_t>(align, 64), &host);
  whole_ = call("allocating buffer '" + name_ + "' (" + std::to_string(bytes) + " bytes)", [&] {
    return host ? cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host) : cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  });
  cl_buffer_region region{static_cast<size_t>(guard_) * width_, static_cast<size_t>(elements_) * width_};
  interior_ = call("creating the interior of buffer '" + name_ + "'",
                   [&] { return whole_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region); });
}

uint32_t GuardedBuffer::word(const std::vector<uint8_t>& bytes, int64_t i) const {
  if (width_ == 4) {
    uint32_t w;
    std::memcpy(&w, bytes.data() + static_cast<size_t>(i) * 4, 4);
    return w;
  }
  uint16_t w;
  std::memcpy(&w, bytes.data() + static_cast<size_t>(i) * 2, 2);
  return w;
}

uint32_t GuardedBuffer::poison_word() const {
  switch (dtype_) {
    case DType::F16:
      return kPoisonBitsF16;
    case DType::BF16:
      return kPoisonBitsBF16;
    case DType::F32:
      break;
  }
  return kPoisonBits;
}

void GuardedBuffer::write_guards() {
  std::vector<uint8_t> guard(static_cast<size_t>(guard_) * width_);
  for (int64_t i = 0; i < guard_; ++i) std::memcpy(guard.data() + static_cast<size_t>(i) * width_, &guard_bits_, width_);  // little-endian
  for (const int64_t first : {int64_t{0}, guard_ + elements_})
    call("writing the guards of buffer '" + name_ + "'",
         [&] { return queue_.enqueueWriteBuffer(whole_, CL_TRUE, static_cast<size_t>(first) * width_, guard.size(), guard.data()); });
}

std::vector<uint32_t> GuardedBuffer::read_guard(int64_t first_element) {
  std::vector<uint8_t> bytes(static_cast<size_t>(guard_) * width_);
  call("reading the guards of buffer '" + name_ + "'",
       [&] { return queue_.enqueueReadBuffer(whole_, CL_TRUE, static_cast<size_t>(first_element) * width_, bytes.size(), bytes.data()); });
  std::vector<uint32_t> words(static_cast<size_t>(guard_));
  for (int64_t i = 0; i < guard_; ++i) words[static_cast<size_t>(i)] = word(bytes, i);
  return words;
}

void GuardedBuffer::encode_into(const std::vector<float>& values, uint8_t* bytes) const {
  if (width_ == 4) {
    std::memcpy(bytes, values.data(), values.size() * 4);
    return;
  }
  // In chunks on the host's cores (core/parallel.hpp); an unrepresentable value: the first one's error.
  const Chunks ch = chunks_of(static_cast<int64_t>(values.size()), int64_t{1} << 18);
  parallel_for(ch.count, [&](int64_t c) {
    for (int64_t j = ch.begin(c); j < ch.end(c); ++j) {
      const size_t i = static_cast<size_t>(j);
      uint16_t w;
      if (!exact_bits(dtype_, values[i], &w))
        throw Error("buffer '" + name_ + "': element " + std::to_string(i) + " (" + std::to_string(values[i]) + ") is not a " + to_string(dtype_) +
                    " value");
      std::memcpy(bytes + 2 * i, &w, 2);
    }
  });
}

void GuardedBuffer::fill_guards(uint8_t* whole) const {
  for (const int64_t first : {int64_t{0}, guard_ + elements_})
    for (int64_t i = first; i < first + guard_; ++i) std::memcpy(whole + static_cast<size_t>(i) * width_, &guard_bits_, width_);  // little-endian
}

void GuardedBuffer::write_whole(const std::vector<uint8_t>& whole) {
  call("writing buffer '" + name_ + "'", [&] { return queue_.enqueueWriteBuffer(whole_, CL_TRUE, 0, whole.size(), whole.data()); });
}

// Both write the guards and the interior in one write of the whole buffer: a device simulator that
// tracks which bytes the host initialized (Oclgrind) keeps only a buffer's last write.
void GuardedBuffer::upload(const std::vector<float>& values) {
  if (static_cast<int64_t>(values.size()) != elements_)
    throw std::logic_error("upload of " + std::to_string(values.size()) + " values into buffer '" + name_ + "' of " + std::to_string(elements_));
  std::vector<uint8_t> whole(static_cast<size_t>(elements_ + 2 * guard_) * width_);
  fill_guards(whole.data());
  encode_into(values, whole.data() + static_cast<size_t>(guard_) * width_);
  write_whole(whole);
}

void GuardedBuffer::poison() {
  // Past 256 MiB, written from the host in pieces of 256 MiB. (clEnqueueFillBuffer would move nothing
  // across the bus, but NVIDIA's driver 580 loses the queue filling a buffer of several GB, even in pieces.)
  constexpr int64_t kPiece = int64_t{1} << 28;
  const uint32_t poison = poison_word();
  const int64_t total = elements_ + 2 * guard_;
  if (total * static_cast<int64_t>(width_) <= kPiece) {
    std::vector<uint8_t> whole(static_cast<size_t>(total) * width_);
    for (int64_t i = guard_; i < guard_ + elements_; ++i) std::memcpy(whole.data() + static_cast<size_t>(i) * width_, &poison, width_);
    fill_guards(whole.data());
    return write_whole(whole);
  }
  write_guards();
  const int64_t per_piece = std::min<int64_t>(elements_, kPiece / static_cast<int64_t>(width_));
  std::vector<uint8_t> piece(static_cast<size_t>(per_piece) * width_);
  for (int64_t i = 0; i < per_piece; ++i) std::memcpy(piece.data() + static_cast<size_t>(i) * width_, &poison, width_);
  for (int64_t first = 0; first < elements_; first += per_piece)
    call("poisoning buffer '" + name_ + "'", [&] {
      const size_t count = static_cast<size_t>(std::min<int64_t>(per_piece, elements_ - first));
      return queue_.enqueueWriteBuffer(interior_, CL_TRUE, static_cast<size_t>(first) * width_, count * width_, piece.data());
    });
}

std::vector<uint8_t> GuardedBuffer::read_interior() {
  std::vector<uint8_t> bytes(static_cast<size_t>(elements_) * width_);
  call("reading buffer '" + name_ + "'", [&] { return queue_.enqueueReadBuffer(interior_, CL_TRUE, 0, bytes.size(), bytes.data()); });
  return bytes;
}

std::vector<float> GuardedBuffer::decode(const std::vector<uint8_t>& bytes) const {
  std::vector<float> values(static_cast<size_t>(elements_));
  if (width_ == 4) {
    std::memcpy(values.data(), bytes.data(), bytes.size());
  } else {
    const Chunks ch = chunks_of(elements_, int64_t{1} << 18);
    parallel_for(ch.count, [&](int64_t c) {
      for (int64_t i = ch.begin(c); i < ch.end(c); ++i) values[static_cast<size_t>(i)] = from_bits(dtype_, static_cast<uint16_t>(word(bytes, i)));
    });
  }
  return values;
}

std::vector<float> GuardedBuffer::download() { return decode(read_interior()); }

bool GuardedBuffer::holds(const std::vector<float>& values) {
  // Words, not floats: a NaN's payload survives, and a 16-bit NaN widened to float and back may not.
  std::vector<uint8_t> bytes(values.size() * width_);
  encode_into(values, bytes.data());
  return read_interior() == bytes;
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
    problems.push_back("buffer '" + name_ + "' of " + std::to_string(elements_) + " elements: written past its end (" + std::to_string(after) +
                       " guard elements changed, the first at index " + std::to_string(first_after) + ")");
  if (expect_written) {
    const std::vector<uint8_t> bytes = read_interior();
    const uint32_t poison = poison_word();
    int64_t unwritten = 0, first = -1;
    for (int64_t i = 0; i < elements_; ++i)
      if (word(bytes, i) == poison) {
        ++unwritten;
        if (first < 0) first = i;
      }
    if (interior) *interior = decode(bytes);
    if (unwritten)
      problems.push_back("buffer '" + name_ + "': " + std::to_string(unwritten) + " of " + std::to_string(elements_) +
                         " elements left unwritten (still poisoned), the first at index " + std::to_string(first));
  }
  return problems;
}

}  // namespace plumbline::ocl
