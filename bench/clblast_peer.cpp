#include "bench/clblast_peer.hpp"

#include <clblast.h>

#include <chrono>

#include "core/error.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"

namespace plumbline::bench {

bool clblast_supports(const Problem& p) { return p.op() == "matmul" || (p.op() == "gemm_bias_act" && (p.i("batch") == 0 || !p.i("bshared"))); }

ClblastGemm::ClblastGemm(ocl::Runtime& rt, const Problem& p, uint64_t seed) : rt_(rt), p_(p) {
  if (!clblast_supports(p)) throw Error("CLBlast peer: no SGEMM for " + p.line());
  const Signature sig = signature_of(p);
  Rng rng(seed);
  auto upload = [&](const TensorDecl& d) {
    const TensorF t = make_input(d, Values::Normal, rng);
    return cl::Buffer(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, t.data.size() * 4, const_cast<float*>(t.data.data()));
  };
  a_ = upload(sig.inputs[0]);
  b_ = upload(sig.inputs[1]);
  c_ = cl::Buffer(rt.context(), CL_MEM_READ_WRITE, static_cast<size_t>(sig.outputs[0].shape.numel()) * 4);
}

std::string ClblastGemm::label() const { return p_.op() == "matmul" ? "CLBlast SGEMM" : "CLBlast SGEMM (without the bias and activation)"; }

double ClblastGemm::launch() {
  using clblast::Layout;
  using clblast::Transpose;
  const size_t batch = static_cast<size_t>(std::max<int64_t>(1, p_.i("batch")));
  const size_t m = static_cast<size_t>(p_.i("m")), k = static_cast<size_t>(p_.i("k")), n = static_cast<size_t>(p_.i("n"));
  const bool ta = p_.has("ta") && p_.i("ta"), tb = p_.has("tb") && p_.i("tb");
  const Transpose ot = Transpose::kNo, tt = Transpose::kYes;
  cl_command_queue q = rt_.queue()();
  rt_.queue().finish();
  const auto t0 = std::chrono::steady_clock::now();
  clblast::StatusCode s;
  if (batch == 1)
    s = clblast::Gemm<float>(Layout::kRowMajor, ta ? tt : ot, tb ? tt : ot, m, n, k, 1.0f, a_(), 0, ta ? m : k, b_(), 0, tb ? k : n, 0.0f, c_(), 0, n,
                             &q, nullptr);
  else
    s = clblast::GemmStridedBatched<float>(Layout::kRowMajor, ta ? tt : ot, tb ? tt : ot, m, n, k, 1.0f, a_(), 0, ta ? m : k, m * k, b_(), 0,
                                           tb ? k : n, k * n, 0.0f, c_(), 0, n, m * n, batch, &q, nullptr);
  rt_.queue().finish();
  if (s != clblast::StatusCode::kSuccess) throw Error("CLBlast SGEMM failed with status " + std::to_string(static_cast<int>(s)) + " on " + p_.line());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace plumbline::bench
