#!/usr/bin/env python3
"""PyTorch's cuDNN/cuBLAS (or, with --device cpu, its CPU build: oneDNN) on the problems a
`plumbline bench` run timed, in FP32 with TF32 off and,
for convolutions and GEMMs, with TF32 on; problems with dtype=f16 or bf16 in that dtype (names
"+torch-f16" / "+torch-bf16"), with reduced-precision reductions off (float32 accumulation, as ours). Times from CUDA events (the kernels, like our profiling
events), warm-up first, then repetitions of enough calls to last --min-time each. Writes Google
Benchmark-style JSON: names "<problem line>@cuda:0+torch-fp32" / "+torch-tf32".

usage: torch_peer.py OURS.json OUT.json [--repetitions 9] [--min-time 0.02] [--device cpu --threads N]
Needs a Python with torch and CUDA (the GPU machine's); bench/side_by_side.sh runs it. With --device cpu
it takes the problems ours ran on PoCL (`@pocl:...`), times them by the wall clock in N threads (the
cores ours had), and names them "<problem line>@cpu+torch-fp32" (bench/conv_cpu_peer.sh).
"""
import argparse
import json
import math
import time

import torch
import torch.nn.functional as F

ACT = {
    "none": lambda z: z,
    "relu": F.relu,
    "gelu_tanh": lambda z: F.gelu(z, approximate="tanh"),
    "gelu_erf": F.gelu,
    "silu": F.silu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
}


def act_backward(kind, dy, pre):
    aten = torch.ops.aten
    if kind == "none":
        return dy
    if kind == "relu":
        return aten.threshold_backward(dy, pre, 0)
    if kind == "gelu_tanh":
        return aten.gelu_backward(dy, pre, approximate="tanh")
    if kind == "gelu_erf":
        return aten.gelu_backward(dy, pre)
    if kind == "silu":
        return aten.silu_backward(dy, pre)
    if kind == "sigmoid":
        return aten.sigmoid_backward(dy, torch.sigmoid(pre))
    return aten.tanh_backward(dy, torch.tanh(pre))


def parse(line):
    op, _, rest = line.partition(":")
    attrs = {}
    for kv in rest.split(","):
        k, _, v = kv.partition("=")
        try:
            attrs[k] = int(v)
        except ValueError:
            try:
                attrs[k] = float(v)
            except ValueError:
                attrs[k] = v
    return op, attrs


DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
DTYPE = torch.float32  # the storage format of the problem being built (its dtype attribute)
DEVICE = "cuda"  # or "cpu" (--device)


def randn(*shape):
    return torch.randn(*shape, device=DEVICE, dtype=DTYPE)


def build(op, a):
    """A closure that runs the problem once with PyTorch, or None when there is no peer for it."""
    aten = torch.ops.aten
    if op.startswith("conv2d"):
        n, c, h, w, k, r, s, g = (a[x] for x in "n c h w k r s g".split())
        stride, pad, dil = (a["sh"], a["sw"]), (a["ph"], a["pw"]), (a["dh"], a["dw"])
        x, wt = randn(n, c, h, w), randn(k, c // g, r, s)
        y = F.conv2d(x, wt, None, stride, pad, dil, g)
        if op == "conv2d":
            b = randn(k) if a.get("bias") else None
            return lambda: F.conv2d(x, wt, b, stride, pad, dil, g)
        dy = torch.randn_like(y)
        if op == "conv2d_bwd_data":
            return lambda: torch.nn.grad.conv2d_input(x.shape, wt, dy, stride, pad, dil, g)
        return lambda: torch.nn.grad.conv2d_weight(x, wt.shape, dy, stride, pad, dil, g)
    if op == "matmul":
        bt, m, k, n = a["batch"], a["m"], a["k"], a["n"]
        lead = (bt,) if bt else ()
        A = randn(*lead, k, m).transpose(-1, -2) if a["ta"] else randn(*lead, m, k)
        B = randn(*lead, n, k).transpose(-1, -2) if a["tb"] else randn(*lead, k, n)
        return lambda: torch.matmul(A, B)
    if op in ("gemm_bias_act", "gemm_bias_act_bwd"):
        bt, m, k, n, act = a["batch"], a["m"], a["k"], a["n"], a["act"]
        A = randn(bt, m, k) if bt else randn(m, k)
        B = randn(k, n) if (not bt or a["bshared"]) else randn(bt, k, n)
        bias = randn(n)
        if op == "gemm_bias_act":
            if bt:
                return lambda: ACT[act](torch.baddbmm(bias, A, B.expand(bt, k, n)))
            return lambda: ACT[act](torch.addmm(bias, A, B))
        if bt:
            return None
        dy = randn(m, n)

        def bwd():  # what autograd runs: recompute the pre-activation, then the three gradients
            pre = torch.addmm(bias, A, B)
            gp = act_backward(act, dy, pre)
            return gp @ B.t(), A.t() @ gp, gp.sum(0)

        return bwd
    if op in ("group_norm", "group_norm_bwd"):
        n, c, h, w, g, eps = a["n"], a["c"], a["h"], a["w"], a["g"], a["eps"]
        x, gamma, beta = randn(n, c, h, w), randn(c), randn(c)
        if op == "group_norm":
            return lambda: F.group_norm(x, g, gamma, beta, eps)
        _, mean, rstd = aten.native_group_norm(x, gamma, beta, n, c, h * w, g, eps)
        dy = torch.randn_like(x)
        return lambda: aten.native_group_norm_backward(dy, x, mean, rstd, gamma, n, c, h * w, g, [True, True, True])
    if op in ("layer_norm", "layer_norm_bwd"):
        m, n, eps = a["m"], a["n"], a["eps"]
        x, gamma, beta = randn(m, n), randn(n), randn(n)
        if op == "layer_norm":
            return lambda: F.layer_norm(x, (n,), gamma, beta, eps)
        _, mean, rstd = aten.native_layer_norm(x, [n], gamma, beta, eps)
        dy = torch.randn_like(x)
        return lambda: aten.native_layer_norm_backward(dy, x, [n], mean, rstd, gamma, beta, [True, True, True])
    if op in ("rms_norm", "rms_norm_bwd"):
        m, n, eps = a["m"], a["n"], a["eps"]
        x, gamma = randn(m, n), randn(n)
        rms = getattr(F, "rms_norm", None)
        fwd = (
            (lambda xx, gg: rms(xx, (n,), gg, eps))
            if rms
            else (lambda xx, gg: xx * torch.rsqrt(xx.pow(2).mean(-1, keepdim=True) + eps) * gg)
        )
        if op == "rms_norm":
            return lambda: fwd(x, gamma)
        xg, gg = x.clone().requires_grad_(), gamma.clone().requires_grad_()
        y = fwd(xg, gg)
        dy = torch.randn_like(y)
        return lambda: torch.autograd.grad(y, (xg, gg), dy, retain_graph=True)
    if op in ("softmax", "log_softmax", "softmax_bwd", "log_softmax_bwd"):
        x = randn(a["m"], a["n"])
        f = torch.softmax if op.startswith("softmax") else torch.log_softmax
        if not op.endswith("_bwd"):
            return lambda: f(x, -1)
        y, dy = f(x, -1), torch.randn_like(x)
        back = aten._softmax_backward_data if op.startswith("softmax") else aten._log_softmax_backward_data
        return lambda: back(dy, y, -1, torch.float32)
    if op in ("cross_entropy", "cross_entropy_bwd"):
        b, c = a["b"], a["c"]
        logits = randn(b, c)
        target = torch.randint(0, c, (b,), device=DEVICE) if a["labels"] == "index" else torch.softmax(randn(b, c), -1)
        if op == "cross_entropy":
            return lambda: F.cross_entropy(logits, target)
        lg = logits.clone().requires_grad_()
        loss = F.cross_entropy(lg, target)
        return lambda: torch.autograd.grad(loss, lg, retain_graph=True)
    if op.startswith("max_pool2d") or op.startswith("avg_pool2d"):
        n, c, h, w = a["n"], a["c"], a["h"], a["w"]
        k, s, p = (a["kh"], a["kw"]), (a["sh"], a["sw"]), (a["ph"], a["pw"])
        x = randn(n, c, h, w)
        if op == "max_pool2d":
            return lambda: F.max_pool2d(x, k, s, p)
        if op == "max_pool2d_bwd":
            y, idx = F.max_pool2d(x, k, s, p, return_indices=True)
            dy = torch.randn_like(y)
            return lambda: aten.max_pool2d_with_indices_backward(dy, x, k, s, p, (1, 1), False, idx)
        cip = bool(a["cip"])
        if op == "avg_pool2d":
            return lambda: F.avg_pool2d(x, k, s, p, count_include_pad=cip)
        dy = torch.randn_like(F.avg_pool2d(x, k, s, p, count_include_pad=cip))
        return lambda: aten.avg_pool2d_backward(dy, x, k, s, p, False, cip, None)
    if op == "global_avg_pool":
        x = randn(a["n"], a["c"], a["h"], a["w"])
        return lambda: x.mean((2, 3))
    if op == "global_avg_pool_bwd":
        n, c, h, w = a["n"], a["c"], a["h"], a["w"]
        dy = randn(n, c)
        return lambda: (dy / (h * w))[:, :, None, None].expand(n, c, h, w).contiguous()
    if op in ("act", "act_bwd"):
        x = randn(a["n"])
        if op == "act":
            return lambda: ACT[a["act"]](x)
        dy = torch.randn_like(x)
        return lambda: act_backward(a["act"], dy, x)
    if op in ("add", "mul"):
        x, y = randn(a["n"]), randn(a["n"])
        return (lambda: x + y) if op == "add" else (lambda: x * y)
    if op == "bias_add":
        x, b = randn(a["m"], a["n"]), randn(a["n"])
        return lambda: x + b
    if op == "bias_add_bwd":
        dy = randn(a["m"], a["n"])
        return lambda: (dy.clone(), dy.sum(0))
    if op in ("sum", "mean"):
        x = randn(a["m"], a["n"])
        f = torch.sum if op == "sum" else torch.mean
        return (lambda: f(x)) if a["over"] == "all" else (lambda: f(x, 1))
    if op == "transpose":
        x = randn(a["m"], a["n"])
        return lambda: x.t().contiguous()
    return None


def time_it_cpu(fn, repetitions, min_time):
    """Seconds per call for each repetition, by the wall clock (a CPU call returns when it is done)."""
    for _ in range(3):
        fn()
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-6)
    calls = max(1, math.ceil(min_time / once))
    out = []
    for _ in range(repetitions):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        out.append((time.perf_counter() - t0) / calls)
    return out, calls


def time_it(fn, repetitions, min_time):
    """Seconds per call for each repetition, from CUDA events."""
    if DEVICE == "cpu":
        return time_it_cpu(fn, repetitions, min_time)
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    once = max(start.elapsed_time(end) / 1e3, 1e-6)
    calls = max(1, math.ceil(min_time / once))
    out = []
    for _ in range(repetitions):
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end) / 1e3 / calls)
    return out, calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ours")
    ap.add_argument("out")
    ap.add_argument("--repetitions", type=int, default=9)
    ap.add_argument("--min-time", type=float, default=0.02)
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (default: PyTorch's own choice)")
    a = ap.parse_args()
    global DEVICE, DTYPE
    DEVICE = a.device
    ours_prefix, peer_where = ("nvidia", "cuda:0") if DEVICE == "cuda" else ("pocl", "cpu")
    with open(a.ours) as f:
        ours = json.load(f)
    lines = []
    for b in ours["benchmarks"]:
        name = b.get("run_name", b["name"]).split("/")[0]
        line, _, where = name.rpartition("@")
        if where.startswith(ours_prefix) and "+" not in where and line not in lines:
            lines.append(line)
    doc = {
        "context": {
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "torch": torch.__version__,
            "repetitions": str(a.repetitions),
        },
        "benchmarks": [],
    }
    if DEVICE == "cuda":
        torch.backends.cudnn.benchmark = True  # cuDNN picks its fastest algorithm per shape
        props = torch.cuda.get_device_properties(0)
        doc["context"].update(
            {"cuda": torch.version.cuda, "cudnn": str(torch.backends.cudnn.version()), "device.cuda:0.name": props.name}
        )
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    else:
        if a.threads:
            torch.set_num_threads(a.threads)
        doc["context"].update(
            {"device.cpu.threads": str(torch.get_num_threads()), "mkldnn": str(torch.backends.mkldnn.is_available())}
        )
    for line in lines:
        op, attrs = parse(line)
        dtype = attrs.get("dtype", "f32")
        DTYPE = DTYPES[dtype]
        tf32 = DEVICE == "cuda" and (op.startswith("conv2d") or op in ("matmul", "gemm_bias_act", "gemm_bias_act_bwd"))
        modes = ["fp32", "tf32"] if tf32 else ["fp32"]
        if dtype != "f32":
            modes = [dtype]
        for mode in modes:
            if DEVICE == "cuda":
                torch.backends.cuda.matmul.allow_tf32 = mode == "tf32"
                torch.backends.cudnn.allow_tf32 = mode == "tf32"
            try:
                fn = build(op, attrs)
            except Exception as e:  # report and go on: one unsupported shape must not lose the others
                print(f"{line}: no PyTorch peer ({e})")
                fn = None
            if fn is None:
                continue
            times, calls = time_it(fn, a.repetitions, a.min_time)
            name = f"{line}@{peer_where}+torch-{mode}"
            print(f"{name}: median {sorted(times)[len(times) // 2] * 1e3:.4f} ms")
            for i, t in enumerate(times):
                doc["benchmarks"].append(
                    {
                        "name": name,
                        "run_name": name,
                        "run_type": "iteration",
                        "repetition_index": i,
                        "iterations": calls,
                        "real_time": t * 1e3,
                        "time_unit": "ms",
                    }
                )
            del fn
            if DEVICE == "cuda":
                torch.cuda.empty_cache()
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
