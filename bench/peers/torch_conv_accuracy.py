#!/usr/bin/env python3
"""PyTorch's float32 convolutions under plumbline's error bound.

For each problem line (conv2d, conv2d_bwd_data, conv2d_bwd_weight), draws the inputs as `plumbline
check` does for two of its value distributions (core/random.hpp):
  normal:  standard normal, about 1 value in 64 scaled by 2^4 .. 2^12 (outliers)
  uniform: uniform in [-1, 1)
runs PyTorch in float32 (TF32 off, cudnn.benchmark on: the algorithm the side by side times), and
compares with the same operation in float64 under the bound every linear operator of plumbline's
meets (docs/verification.md, "Error bound"): |got - ref| <= 2 gamma(K) mag + FLT_MIN, mag the
operation on |inputs| in float64, K the reduction length (c/g r s, k/g r s or n p q), gamma(K) =
K u / (1 - K u), u = 2^-24 (K past 2^16 as max(2^16, 2 sqrt(K))). Prints the worst error/bound
ratio per line and distribution: above 1 is what `plumbline check` calls wrong.

Usage: torch_conv_accuracy.py PROBLEM_LINE... [--seeds N] [--json FILE]
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
    a = {"sh": 1, "sw": 1, "ph": 0, "pw": 0, "dh": 1, "dw": 1, "g": 1}
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


def run(op, a, x, wt, dy):
    stride, pad, dil, g = (a["sh"], a["sw"]), (a["ph"], a["pw"]), (a["dh"], a["dw"]), a["g"]
    if op == "conv2d":
        return F.conv2d(x, wt, None, stride, pad, dil, g)
    if op == "conv2d_bwd_data":
        return torch.nn.grad.conv2d_input(x.shape, wt, dy, stride, pad, dil, g)
    return torch.nn.grad.conv2d_weight(x, wt.shape, dy, stride, pad, dil, g)


def worst_ratio(op, a, dist, seed, device):
    gen = torch.Generator(device=device).manual_seed(seed)
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
    mag = run(op, a, x.abs(), wt.abs(), dy.abs())
    bound = 2.0 * gamma(depth) * mag + FLT_MIN
    ratio = ((got - ref).abs() / bound).max().item()
    return ratio, depth


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lines", nargs="+")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    print(
        f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {device}"
        + (f" ({torch.cuda.get_device_name()})" if device == "cuda" else "")
    )
    print("| problem | K | worst error/bound, normal (outliers) | uniform |")
    print("|---|---|---|---|")
    rows = []
    for line in args.lines:
        op, a = parse(line)
        worst = {}
        for dist in ("normal", "uniform"):
            ratios = [worst_ratio(op, a, dist, seed, device) for seed in range(1, args.seeds + 1)]
            worst[dist] = max(r for r, _ in ratios)
            depth = ratios[0][1]
        rows.append({"problem": line, "k": depth, **worst})
        print(f"| `{line}` | {depth} | {worst['normal']:.3g} | {worst['uniform']:.3g} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
