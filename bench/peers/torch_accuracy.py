#!/usr/bin/env python3
"""PyTorch's float32 convolutions and matmuls under plumbline's error bounds, and the numeric mode each
falls in.

For each problem line (conv2d, conv2d_bwd_data, conv2d_bwd_weight, matmul), draws the inputs as
`plumbline check` does for two of its value distributions (core/random.hpp):
  normal:  standard normal, about 1 value in 64 scaled by 2^4 .. 2^12 (outliers)
  uniform: uniform in [-1, 1)
runs PyTorch in float32 (TF32 off, cudnn.benchmark on: the algorithm the side by side times), and
compares with the same operation in float64 under the bound every linear operator of plumbline's
meets (docs/verification.md, "Error bound"): |got - ref| <= 2 gamma(K) mag + FLT_MIN, mag the
operation on |inputs| in float64, K the reduction length (c/g r s, k/g r s or n p q; matmul's k), gamma(K) =
K u / (1 - K u), u = 2^-24 (K past 2^16 as max(2^16, 2 sqrt(K))). Prints the worst error/bound
ratio per line and distribution: above 1 is what `plumbline check` calls wrong.

Then the same under the numeric modes' bounds (docs/verification.md, "Numeric modes"): tf32 adds
(2 * 2^-10 + 2^-20) mag; winograd(m,3) (conv2d, 3x3, stride 1, dilation 1) is 2 gamma(4n + 9 + c/g) W
with n = m + 2 and W the Winograd transforms on absolute values. The `mode` column names the first
mode (exact, tf32, winograd(2,3), winograd(4,3)) whose bound holds the line's outputs on both
distributions: the mode to put our kernels beside it in. `--tf32` runs PyTorch with TF32 on
(cuBLAS's matmuls and cuDNN's convolutions).

Usage: torch_accuracy.py PROBLEM_LINE... [--seeds N] [--tf32] [--json FILE]
"""
import argparse
import json
import math

import torch
import torch.nn.functional as F

U = 2.0**-24
FLT_MIN = 1.1754943508222875e-38


def parse(line):
    op, _, rest = line.partition(":")
    a = {"sh": 1, "sw": 1, "ph": 0, "pw": 0, "dh": 1, "dw": 1, "g": 1, "batch": 0, "ta": 0, "tb": 0}
    for kv in rest.split(","):
        key, value = kv.split("=")
        a[key] = int(value)
    return op, a


def gamma(k):
    if k > 65536:
        k = max(65536.0, 2.0 * math.sqrt(k))
    return k * U / (1.0 - k * U)


def draw(shape, dist, gen, device):
    if dist == "uniform":
        return torch.rand(shape, generator=gen, device=device, dtype=torch.float64) * 2.0 - 1.0
    v = torch.randn(shape, generator=gen, device=device, dtype=torch.float64)
    outlier = torch.rand(shape, generator=gen, device=device, dtype=torch.float64) < 1.0 / 64.0
    exps = torch.randint(4, 13, shape, generator=gen, device=device).to(torch.float64)
    return torch.where(outlier, v * torch.pow(2.0, exps), v).to(torch.float32).to(torch.float64)  # float32 values


TF32 = 2.0 * 2.0**-10 + 2.0**-20  # each product's inputs to 10 explicit mantissa bits (core/numeric_mode.cpp)

# Lavin and Gray's F(m x m, 3 x 3) transforms, as absolute values: B^T, G, A^T (check/error_models/conv.cpp).
WINOGRAD = {
    2: (
        [[1, 0, 1, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 1, 0, 1]],
        [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0, 0, 1]],
        [[1, 1, 1, 0], [0, 1, 1, 1]],
    ),
    4: (
        [
            [4, 0, 5, 0, 1, 0],
            [0, 4, 4, 1, 1, 0],
            [0, 4, 4, 1, 1, 0],
            [0, 2, 1, 2, 1, 0],
            [0, 2, 1, 2, 1, 0],
            [0, 4, 0, 5, 0, 1],
        ],
        [
            [1 / 4, 0, 0],
            [1 / 6, 1 / 6, 1 / 6],
            [1 / 6, 1 / 6, 1 / 6],
            [1 / 24, 1 / 12, 1 / 6],
            [1 / 24, 1 / 12, 1 / 6],
            [0, 0, 1],
        ],
        [[1, 1, 1, 1, 1, 0], [0, 1, 1, 2, 2, 0], [0, 1, 1, 4, 4, 0], [0, 1, 1, 8, 8, 1]],
    ),
}


def winograd_magnitude(m, a, x, wt):
    """W per output: |A^T| [sum_c (|G| |g_c| |G^T|) . (|B^T| |d_c| |B|)] |A| over output tiles from (0, 0)."""
    bt, g, at = (torch.tensor(t, dtype=torch.float64, device=x.device) for t in WINOGRAD[m])
    n = m + 2
    N, C, H, W_ = x.shape
    P, Q = H + 2 * a["ph"] - 2, W_ + 2 * a["pw"] - 2
    tp, tq = -(-P // m), -(-Q // m)
    pad = F.pad(x.abs(), (a["pw"], tq * m + 2 - W_ - a["pw"], a["ph"], tp * m + 2 - H - a["ph"]))  # zeros around
    tiles = pad.unfold(2, n, m).unfold(3, n, m)  # N, C, tp, tq, n, n
    v = torch.einsum("ia,nctqab,jb->nctqij", bt, tiles, bt)
    u = torch.einsum("ia,kcab,jb->kcij", g, wt.abs(), g)
    y = torch.einsum("ia,nktqab,jb->nktqij", at, torch.einsum("kcij,nctqij->nktqij", u, v), at)  # N, K, tp, tq, m, m
    return y.permute(0, 1, 2, 4, 3, 5).reshape(N, wt.shape[0], tp * m, tq * m)[:, :, :P, :Q]


def run(op, a, x, wt, dy):
    stride, pad, dil, g = (a["sh"], a["sw"]), (a["ph"], a["pw"]), (a["dh"], a["dw"]), a["g"]
    if op == "conv2d":
        return F.conv2d(x, wt, None, stride, pad, dil, g)
    if op == "conv2d_bwd_data":
        return torch.nn.grad.conv2d_input(x.shape, wt, dy, stride, pad, dil, g)
    return torch.nn.grad.conv2d_weight(x, wt.shape, dy, stride, pad, dil, g)


def ratios_of(got, ref, mag, depth):
    """The worst error / bound over the outputs, in the exact contract and in tf32."""
    err = (got - ref).abs()
    return {
        "exact": (err / (2.0 * gamma(depth) * mag + FLT_MIN)).max().item(),
        "tf32": (err / (2.0 * (gamma(depth) + TF32) * mag + FLT_MIN)).max().item(),
    }


def matmul_ratios(a, dist, gen, device):
    """matmul: y = op(A) op(B), A [batch] m x k (k x m with ta), B [batch] k x n (n x k with tb)."""
    lead = (a["batch"],) if a["batch"] else ()
    x = draw(lead + ((a["k"], a["m"]) if a["ta"] else (a["m"], a["k"])), dist, gen, device)
    w = draw(lead + ((a["n"], a["k"]) if a["tb"] else (a["k"], a["n"])), dist, gen, device)

    def run_matmul(p, q):
        return torch.matmul(p.transpose(-1, -2) if a["ta"] else p, q.transpose(-1, -2) if a["tb"] else q)

    got = run_matmul(x.float(), w.float()).double()
    return ratios_of(got, run_matmul(x, w), run_matmul(x.abs(), w.abs()), a["k"]), a["k"]


OPS = ("conv2d", "conv2d_bwd_data", "conv2d_bwd_weight", "matmul")


def worst_ratio(op, a, dist, seed, device):
    if op not in OPS:
        raise SystemExit(f"torch_accuracy.py: {op}: the operators judged here are " + ", ".join(OPS))
    gen = torch.Generator(device=device).manual_seed(seed)
    if op == "matmul":
        return matmul_ratios(a, dist, gen, device)
    n, c, h, w, k, r, s, g = (a[x] for x in "n c h w k r s g".split())
    x = draw((n, c, h, w), dist, gen, device)
    wt = draw((k, c // g, r, s), dist, gen, device)
    y_shape = F.conv2d(
        x[:1, :, :, :].float(), wt.float(), None, (a["sh"], a["sw"]), (a["ph"], a["pw"]), (a["dh"], a["dw"]), g
    ).shape
    dy = draw((n, k, y_shape[2], y_shape[3]), dist, gen, device)
    depth = {
        "conv2d": c // g * r * s,
        "conv2d_bwd_data": k // g * r * s,
        "conv2d_bwd_weight": n * y_shape[2] * y_shape[3],
    }[op]
    got = run(op, a, x.float(), wt.float(), dy.float()).double()
    ref = run(op, a, x, wt, dy)
    ratios = ratios_of(got, ref, run(op, a, x.abs(), wt.abs(), dy.abs()), depth)
    err = (got - ref).abs()
    winograd_fits = op == "conv2d" and (a["r"], a["s"], a["sh"], a["sw"], a["dh"], a["dw"], g) == (3, 3, 1, 1, 1, 1, 1)
    for m in (2, 4):
        if winograd_fits:
            bound = 2.0 * gamma(4 * (m + 2) + 9 + c) * winograd_magnitude(m, a, x, wt) + FLT_MIN
            ratios[f"winograd({m},3)"] = (err / bound).max().item()
    return ratios, depth


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lines", nargs="+")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument(
        "--tf32", action="store_true", help="PyTorch with TF32 on (cudnn.allow_tf32), as its default for convolutions"
    )
    ap.add_argument("--json")
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = args.tf32
    torch.backends.cudnn.allow_tf32 = args.tf32
    torch.backends.cudnn.benchmark = True
    print(
        f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {device}"
        + (f" ({torch.cuda.get_device_name()})" if device == "cuda" else "")
    )
    modes = ["exact", "tf32", "winograd(2,3)", "winograd(4,3)"]
    print("| problem | K | worst error/bound in " + ", ".join(modes) + ": normal (outliers) / uniform | mode |")
    print("|---|---|---|---|")
    rows = []
    for line in args.lines:
        op, a = parse(line)
        worst = {}
        for dist in ("normal", "uniform"):
            for seed in range(1, args.seeds + 1):
                ratios, depth = worst_ratio(op, a, dist, seed, device)
                for mode, r in ratios.items():
                    worst.setdefault(mode, {}).setdefault(dist, 0.0)
                    worst[mode][dist] = max(worst[mode][dist], r)
        within = [mode for mode in modes if mode in worst and max(worst[mode].values()) <= 1.0]
        mode = within[0] if within else "none"
        cells = ", ".join(f"{worst[m]['normal']:.3g} / {worst[m]['uniform']:.3g}" if m in worst else "-" for m in modes)
        rows.append({"problem": line, "k": depth, "ratios": worst, "mode": mode})
        print(f"| `{line}` | {depth} | {cells} | {mode} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
