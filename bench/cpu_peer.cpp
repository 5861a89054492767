#include "bench/cpu_peer.hpp"

#include <Eigen/Core>

#include "core/registry.hpp"
#include "reference/activation.hpp"
#include "reference/reference.hpp"

namespace plumbline::bench {
namespace {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Map = Eigen::Map<Mat>;
using CMap = Eigen::Map<const Mat>;

// Y = op(A) op(B) per batch entry.
CpuPeer matmul_peer(const Problem& p) {
  return {"eigen-gemm", [p](const std::vector<TensorF>& in, std::vector<TensorF>& out) {
            const int64_t b = std::max<int64_t>(1, p.i("batch")), m = p.i("m"), k = p.i("k"), n = p.i("n");
            const bool ta = p.i("ta"), tb = p.i("tb");
            for (int64_t i = 0; i < b; ++i) {
              CMap A(in[0].data.data() + i * m * k, ta ? k : m, ta ? m : k);
              CMap B(in[1].data.data() + i * k * n, tb ? n : k, tb ? k : n);
              Map Y(out[0].data.data() + i * m * n, m, n);
              if (ta && tb)
                Y.noalias() = A.transpose() * B.transpose();
              else if (ta)
                Y.noalias() = A.transpose() * B;
              else if (tb)
                Y.noalias() = A * B.transpose();
              else
                Y.noalias() = A * B;
            }
          }};
}

CpuPeer gemm_bias_act_peer(const Problem& p) {
  return {"eigen-gemm", [p](const std::vector<TensorF>& in, std::vector<TensorF>& out) {
            const int64_t b = std::max<int64_t>(1, p.i("batch")), m = p.i("m"), k = p.i("k"), n = p.i("n");
            const Act act = parse_act(p.s("act"));
            const bool shared = p.i("bshared") || p.i("batch") == 0;
            Eigen::Map<const Eigen::RowVectorXf> bias(in[2].data.data(), n);
            for (int64_t i = 0; i < b; ++i) {
              CMap A(in[0].data.data() + i * m * k, m, k);
              CMap B(in[1].data.data() + (shared ? 0 : i * k * n), k, n);
              Map Y(out[0].data.data() + i * m * n, m, n);
              Y.noalias() = A * B;
              Y.rowwise() += bias;
              if (act != Act::None) Y = Y.unaryExpr([act](float z) { return static_cast<float>(act_forward(act, z)); });
            }
          }};
}

// Convolution geometry of a conv problem.
struct Conv {
  int64_t n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q;
  explicit Conv(const Problem& x)
      : n(x.i("n")),
        c(x.i("c")),
        h(x.i("h")),
        w(x.i("w")),
        k(x.i("k")),
        r(x.i("r")),
        s(x.i("s")),
        sh(x.i("sh")),
        sw(x.i("sw")),
        ph(x.i("ph")),
        pw(x.i("pw")),
        dh(x.i("dh")),
        dw(x.i("dw")),
        g(x.i("g")),
        p((h + 2 * ph - dh * (r - 1) - 1) / sh + 1),
        q((w + 2 * pw - dw * (s - 1) - 1) / sw + 1) {}
  int64_t cg() const { return c / g; }
  int64_t kg() const { return k / g; }
};

// im2col of one image's group: columns [cg*r*s, p*q].
void im2col(const Conv& d, const float* x, int64_t group, Mat& col) {
  col.resize(d.cg() * d.r * d.s, d.p * d.q);
  for (int64_t ci = 0; ci < d.cg(); ++ci)
    for (int64_t ri = 0; ri < d.r; ++ri)
      for (int64_t si = 0; si < d.s; ++si) {
        float* row = col.data() + ((ci * d.r + ri) * d.s + si) * d.p * d.q;
        const float* plane = x + (group * d.cg() + ci) * d.h * d.w;
        for (int64_t pi = 0; pi < d.p; ++pi) {
          const int64_t hi = pi * d.sh - d.ph + ri * d.dh;
          for (int64_t qi = 0; qi < d.q; ++qi) {
            const int64_t wi = qi * d.sw - d.pw + si * d.dw;
            row[pi * d.q + qi] = hi >= 0 && hi < d.h && wi >= 0 && wi < d.w ? plane[hi * d.w + wi] : 0.0f;
          }
        }
      }
}

// col2im: accumulate columns [cg*r*s, p*q] back into one image's group.
void col2im(const Conv& d, const Mat& col, int64_t group, float* x) {
  for (int64_t ci = 0; ci < d.cg(); ++ci)
    for (int64_t ri = 0; ri < d.r; ++ri)
      for (int64_t si = 0; si < d.s; ++si) {
        const float* row = col.data() + ((ci * d.r + ri) * d.s + si) * d.p * d.q;
        float* plane = x + (group * d.cg() + ci) * d.h * d.w;
        for (int64_t pi = 0; pi < d.p; ++pi) {
          const int64_t hi = pi * d.sh - d.ph + ri * d.dh;
          if (hi < 0 || hi >= d.h) continue;
          for (int64_t qi = 0; qi < d.q; ++qi) {
            const int64_t wi = qi * d.sw - d.pw + si * d.dw;
            if (wi >= 0 && wi < d.w) plane[hi * d.w + wi] += row[pi * d.q + qi];
          }
        }
      }
}

CpuPeer conv_peer(const Problem& prob) {
  const std::string op = prob.op();
  return {"eigen-im2col-gemm", [prob, op](const std::vector<TensorF>& in, std::vector<TensorF>& out) {
            const Conv d(prob);
            Mat col;
            const int64_t crs = d.cg() * d.r * d.s, pq = d.p * d.q;
            if (op == "conv2d") {
              for (int64_t ni = 0; ni < d.n; ++ni)
                for (int64_t gi = 0; gi < d.g; ++gi) {
                  im2col(d, in[0].data.data() + ni * d.c * d.h * d.w, gi, col);
                  CMap W(in[1].data.data() + gi * d.kg() * crs, d.kg(), crs);
                  Map Y(out[0].data.data() + (ni * d.k + gi * d.kg()) * pq, d.kg(), pq);
                  Y.noalias() = W * col;
                  if (in.size() == 3)
                    for (int64_t ki = 0; ki < d.kg(); ++ki) Y.row(ki).array() += in[2][gi * d.kg() + ki];
                }
            } else if (op == "conv2d_bwd_data") {
              std::fill(out[0].data.begin(), out[0].data.end(), 0.0f);
              for (int64_t ni = 0; ni < d.n; ++ni)
                for (int64_t gi = 0; gi < d.g; ++gi) {
                  CMap W(in[0].data.data() + gi * d.kg() * crs, d.kg(), crs);
                  CMap DY(in[1].data.data() + (ni * d.k + gi * d.kg()) * pq, d.kg(), pq);
                  col.noalias() = W.transpose() * DY;
                  col2im(d, col, gi, out[0].data.data() + ni * d.c * d.h * d.w);
                }
            } else {  // conv2d_bwd_weight
              std::fill(out[0].data.begin(), out[0].data.end(), 0.0f);
              for (int64_t ni = 0; ni < d.n; ++ni)
                for (int64_t gi = 0; gi < d.g; ++gi) {
                  im2col(d, in[0].data.data() + ni * d.c * d.h * d.w, gi, col);
                  CMap DY(in[1].data.data() + (ni * d.k + gi * d.kg()) * pq, d.kg(), pq);
                  Map DW(out[0].data.data() + gi * d.kg() * crs, d.kg(), crs);
                  DW.noalias() += DY * col.transpose();
                }
              if (out.size() == 2) {
                std::fill(out[1].data.begin(), out[1].data.end(), 0.0f);
                for (int64_t ni = 0; ni < d.n; ++ni)
                  for (int64_t ki = 0; ki < d.k; ++ki) out[1][ki] += CMap(in[1].data.data() + (ni * d.k + ki) * pq, 1, pq).sum();
              }
            }
          }};
}

}  // namespace

CpuPeer cpu_peer(const Problem& p) {
  if (p.op() == "matmul") return matmul_peer(p);
  if (p.op() == "gemm_bias_act") return gemm_bias_act_peer(p);
  if (p.op() == "conv2d" || p.op() == "conv2d_bwd_data" || p.op() == "conv2d_bwd_weight") return conv_peer(p);
  return {"eigen-reference", [p](const std::vector<TensorF>& in, std::vector<TensorF>& out) { out = run_reference_f32(p, in); }};
}

}  // namespace plumbline::bench
