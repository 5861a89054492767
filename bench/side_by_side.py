#!/usr/bin/env python3
"""Merges a `plumbline bench` run on an NVIDIA GPU (ours, with --clblast-peer) and torch_peer.py's run
into one JSON (the report reads it) and a Markdown table of ratios per operator and shape
(docs/performance.md). Ratio = our median time / the peer's: above 1, we are slower. A run of ours on
PoCL pairs with torch_peer.py --device cpu (PyTorch's CPU build: oneDNN for convolutions).

usage: side_by_side.py OURS.json TORCH.json [OURS2.json TORCH2.json ...] --json OUT.json [--markdown OUT.md]
                       [--peer-modes ACCURACY.json] [--peer-modes-tf32 ACCURACY.json]
Like for like: each of our lines is also put beside the peer in its own numeric mode (docs/verification.md;
the mode is in our label, `math MODE`, exact without it): an exact or Winograd kernel beside PyTorch FP32
(TF32 off: cuDNN's chosen algorithm), a tf32 kernel beside PyTorch with TF32 on. Where
bench/peers/torch_accuracy.py's JSON says which mode's bound PyTorch's output falls in
(--peer-modes with TF32 off, --peer-modes-tf32 with it on), an exact line whose peer is outside the exact
bound gets no like-for-like ratio, and the row says the peer's mode.
Several pairs (side_by_side.sh's runs batch by batch, or later runs of some problems) merge into one
table: a problem's row comes from the last pair that has it, and says which (`run`). A file may be
gzipped (.gz). Standard library only (it runs on the GPU machine too)."""
import argparse
import gzip
import json
import statistics


def load(path):
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        return json.load(f)


def medians(doc):
    times, labels = {}, {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"]).split("/")[0]
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
        times.setdefault(name, []).append(b["real_time"] * unit)
        if b.get("label"):
            labels[name] = b["label"]
    return {k: statistics.median(v) for k, v in times.items()}, labels


def our_mode(label):
    """The numeric mode of the variant a label names (`..., math tf32`), exact without one."""
    for part in label.split(", "):
        if part.startswith("math "):
            return part[5:]
    return "exact"


def like_for_like(row, peer_modes, peer_modes_tf32):
    """The peer in the row's own mode: its key, its ratio, and the peer's measured mode where known.
    A 16-bit line stands beside PyTorch in its format (float32 accumulation, as our exact contract)."""
    mode = row["mode"]
    tf32 = mode == "tf32"
    half = next((d for d in ("f16", "bf16") if f"dtype={d}" in row["problem"].split(",")), None)
    key = "torch_tf32" if tf32 else f"torch_{half}" if half else "torch_fp32"
    peer_mode = (peer_modes_tf32 if tf32 else peer_modes).get(row["problem"])
    row["peer_same_mode"] = key
    if peer_mode is not None:
        row["peer_mode"] = peer_mode
    # An exact kernel is compared with a peer that meets the exact bound; a peer measured outside it is not.
    if mode == "exact" and peer_mode not in (None, "exact"):
        return
    if "ratio_" + key in row:
        row["ratio_same_mode"] = row["ratio_" + key]


def modes_of(paths):
    """problem line -> mode, from torch_accuracy.py's JSON files."""
    return {r["problem"]: r["mode"] for path in paths for r in load(path)}


def rows_of(ours_doc, torch_doc, run):
    ours, labels = medians(ours_doc)
    peer, _ = medians(torch_doc)
    rows = []
    for name, t in ours.items():
        line, _, where = name.rpartition("@")
        if "+" in where or not where.startswith(("nvidia", "pocl")):
            continue
        peer_where = "cuda:0" if where.startswith("nvidia") else "cpu"
        row = {
            "problem": line,
            "op": line.split(":")[0],
            "device": where,
            "ours_s": t,
            "ours_checked_at": labels.get(name, ""),
            "mode": our_mode(labels.get(name, "")),
            "run": run,
        }
        for key, peer_name in (
            ("clblast_s", f"{line}@{where}+clblast"),
            ("torch_fp32_s", f"{line}@{peer_where}+torch-fp32"),
            ("torch_tf32_s", f"{line}@{peer_where}+torch-tf32"),
            ("torch_f16_s", f"{line}@{peer_where}+torch-f16"),
            ("torch_bf16_s", f"{line}@{peer_where}+torch-bf16"),
        ):
            src = ours if key == "clblast_s" else peer
            if peer_name in src:
                row[key] = src[peer_name]
                row["ratio_" + key[:-2]] = t / src[peer_name]
        for b in ours_doc["benchmarks"]:
            if b.get("run_name", "").split("/")[0] == name and b.get("run_type") == "iteration":
                row["flops"], row["bytes"] = b.get("flops", 0), b.get("bytes", 0)
                break
        # Throughput at the median time, and against the device's measured peaks (the run's context).
        ctx = ours_doc.get("context", {})
        peak_f = float(ctx.get(f"device.{where}.peak_gflops", "nan")) * 1e9
        if ("dtype=f16" in name or "dtype=bf16" in name) and f"device.{where}.peak_tensor_gflops" in ctx:
            peak_f = float(ctx[f"device.{where}.peak_tensor_gflops"]) * 1e9  # 16-bit: the tensor cores' measured rate
        peak_b = float(ctx.get(f"device.{where}.peak_gbps", "nan")) * 1e9
        row["gflops"] = row.get("flops", 0) / t / 1e9
        row["gbps"] = row.get("bytes", 0) / t / 1e9
        row["pct_peak_flops"] = 100 * row["gflops"] * 1e9 / peak_f
        row["pct_peak_bw"] = 100 * row["gbps"] * 1e9 / peak_b
        row["pct_roofline"] = 100 * max(row.get("flops", 0) / peak_f, row.get("bytes", 0) / peak_b) / t
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", metavar="OURS.json TORCH.json")
    ap.add_argument("--json", required=True)
    ap.add_argument("--markdown")
    ap.add_argument(
        "--peer-modes",
        action="append",
        default=[],
        help="torch_accuracy.py's JSON, PyTorch with TF32 off (repeatable)",
    )
    ap.add_argument("--peer-modes-tf32", action="append", default=[], help="the same with TF32 on (repeatable)")
    a = ap.parse_args()
    if len(a.runs) % 2:
        ap.error(f"the runs come in pairs, OURS.json TORCH.json: {len(a.runs)} files given")
    pairs = [(a.runs[i], a.runs[i + 1]) for i in range(0, len(a.runs), 2)]
    merged = {}  # (problem, device) -> row; a later pair's row replaces an earlier one in its place
    for i, (ours_path, torch_path) in enumerate(pairs):
        ours_doc, torch_doc = load(ours_path), load(torch_path)
        if i == 0:
            first_ours, first_torch = ours_doc, torch_doc
        for row in rows_of(ours_doc, torch_doc, ours_path):
            merged[(row["problem"], row["device"])] = row
    rows = list(merged.values())
    peer_modes, peer_modes_tf32 = modes_of(a.peer_modes), modes_of(a.peer_modes_tf32)
    for row in rows:
        like_for_like(row, peer_modes, peer_modes_tf32)
    ours_doc, torch_doc = first_ours, first_torch
    ctx = dict(ours_doc.get("context", {}))
    ctx.update({"torch." + k: v for k, v in torch_doc.get("context", {}).items()})
    if len(pairs) > 1:
        ctx["side_by_side.runs"] = "; ".join(o for o, _ in pairs)  # the context above is the first run's
    with open(a.json, "w") as f:
        json.dump({"kind": "side_by_side", "context": ctx, "rows": rows}, f, indent=1)
    if a.markdown:
        with open(a.markdown, "w") as f:
            timing = ctx.get("plumbline.timing", "launch")
            f.write(
                f"Ours timed with `--timing {timing}` ("
                + (
                    "launches back to back, as PyTorch's loop of calls"
                    if timing == "stream"
                    else "one launch at a time; PyTorch's loop of calls has the gaps between launches in it"
                )
                + ").\n\n"
            )
            f.write(
                "| problem | ours (ms) | GFLOP/s | GB/s | % roofline | ours / PyTorch FP32 (cuDNN, cuBLAS; oneDNN on CPU) | ours / TF32 | ours / CLBlast | ours / PyTorch same dtype | mode: ours / PyTorch in it |\n"
            )
            f.write("|---|---|---|---|---|---|---|---|---|---|\n")
            for r in rows:

                def ratio(k):
                    return f"{r[k]:.2f}" if k in r else "-"

                if "ratio_same_mode" in r:
                    same = f"{r['mode']}: {r['ratio_same_mode']:.2f}"
                elif r.get("peer_mode") not in (None, r["mode"]):
                    same = f"{r['mode']}: - (PyTorch in {r['peer_mode']})"
                else:
                    same = f"{r['mode']}: -"
                f.write(
                    f"| `{r['problem']}` | {r['ours_s'] * 1e3:.3f} | {r.get('gflops', 0):.0f} | {r.get('gbps', 0):.0f} | {r.get('pct_roofline', 0):.1f} | "
                    f"{ratio('ratio_torch_fp32')} | {ratio('ratio_torch_tf32')} | {ratio('ratio_clblast')} | "
                    f"{ratio('ratio_torch_f16') if 'ratio_torch_f16' in r else ratio('ratio_torch_bf16')} | {same} |\n"
                )


if __name__ == "__main__":
    main()
