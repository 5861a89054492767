#!/usr/bin/env python3
"""The current figures per device: bench/baselines/<device>.json, one row per problem.

  baselines.py update BASELINE.json SIDE_BY_SIDE.json...  rows of each run replace the baseline's rows
                                                          of the same problem (runs in the order given)
  baselines.py markdown BASELINE.json...                  the tables of docs/performance.md, printed
  baselines.py render DOC.md BASELINE.json...             written into DOC between its two markers
  baselines.py check DOC.md BASELINE.json...              exit 1 when DOC's tables are not the baselines'

A row keeps the run it came from: date, driver, PyTorch and plumbline's build. A baseline is replaced
row by row when a problem is remeasured, never accumulated as run folders.
"""
import argparse
import json
import os
import sys

KEEP = (
    "problem",
    "op",
    "ours_s",
    "ours_checked_at",
    "torch_fp32_s",
    "ratio_torch_fp32",
    "torch_tf32_s",
    "ratio_torch_tf32",
    "clblast_s",
    "ratio_clblast",
    "torch_f16_s",
    "ratio_torch_f16",
    "torch_bf16_s",
    "ratio_torch_bf16",
    "flops",
    "bytes",
    "gflops",
    "gbps",
    "pct_roofline",
)


def device_of(ctx):
    names = [v for k, v in ctx.items() if k.startswith("device.") and k.endswith(".name")]
    return names[0] if names else "unknown"


def update(baseline_path, runs):
    doc = {"kind": "baseline", "device": None, "rows": []}
    if os.path.exists(baseline_path):
        with open(baseline_path) as f:
            doc = json.load(f)
    rows = {r["problem"]: r for r in doc["rows"]}
    for path in runs:
        with open(path) as f:
            run = json.load(f)
        ctx = run.get("context", {})
        device = device_of(ctx)
        if doc["device"] and doc["device"] != device:
            sys.exit(f"baselines.py: error: {path} ran on {device}, the baseline is of {doc['device']}")
        doc["device"] = device
        where = next((k.split(".")[1] for k in ctx if k.startswith("device.") and k.endswith(".name")), "")
        origin = {
            "date": ctx.get("date", "")[:10],
            "driver": ctx.get(f"device.{where}.driver", ""),
            "torch": ctx.get("torch.torch", ""),
            "cudnn": ctx.get("torch.cudnn", ""),
            "build": ctx.get("plumbline.build", ""),
            "timing": ctx.get("plumbline.timing", ""),
        }
        for r in run["rows"]:
            rows[r["problem"]] = {**{k: r[k] for k in KEEP if k in r}, **origin}
    doc["rows"] = sorted(rows.values(), key=lambda r: (r["op"], r["problem"]))
    with open(baseline_path, "w") as f:
        json.dump(doc, f, indent=0, sort_keys=False)
        f.write("\n")


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- tables from bench/baselines.py: begin -->", "<!-- tables from bench/baselines.py: end -->"


def render(doc_path, paths, write):
    with open(doc_path) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"baselines.py: error: {doc_path} has no '{BEGIN}' ... '{END}' block")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + tables(paths) + "\n" + END + tail
    if write:
        with open(doc_path, "w") as f:
            f.write(new)
        return 0
    if new != text:
        print(
            f"baselines.py: {doc_path}'s tables differ from {', '.join(paths)}: run baselines.py render",
            file=sys.stderr,
        )
        return 1
    return 0


def tables(paths):
    docs = []
    for path in paths:
        with open(path) as f:
            docs.append((os.path.relpath(os.path.abspath(path), REPO), json.load(f)))
    out = ["| device | file | measured | driver | PyTorch (cuDNN) |", "|---|---|---|---|---|"]
    for path, doc in docs:
        rows = doc["rows"]
        dates = sorted({r["date"] for r in rows})
        drivers = ", ".join(sorted({r["driver"] for r in rows if r["driver"]}))
        torches = ", ".join(sorted({f"{r['torch']} ({r['cudnn']})" for r in rows if r["torch"]}))
        out.append(f"| {doc['device']} | `{path}` | {dates[0]} to {dates[-1]} | {drivers} | {torches} |")
    out.append("")
    out.append(
        "Per device: ours in ms (launches back to back, `--timing stream`, median of 9), and ours / PyTorch "
        "in the same run (FP32 with TF32 off; for f16/bf16 lines PyTorch in that format). Below 1: ours is faster."
    )
    out.append("")
    heads = " | ".join(f"{doc['device']} ms | / PyTorch" for _, doc in docs)
    out.append(f"| problem | {heads} |")
    out.append("|---|" + "---|---|" * len(docs))
    problems = sorted({r["problem"] for _, doc in docs for r in doc["rows"]}, key=lambda p: (p.split(":")[0], p))
    by = [{r["problem"]: r for r in doc["rows"]} for _, doc in docs]
    for p in problems:
        cells = []
        for rows in by:
            r = rows.get(p)
            if not r:
                cells += ["-", "-"]
                continue
            k = next((k for k in ("ratio_torch_f16", "ratio_torch_bf16", "ratio_torch_fp32") if k in r), None)
            cells += [f"{r['ours_s'] * 1e3:.3f}", f"{r[k]:.2f}" if k else "-"]
        out.append(f"| `{p}` | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("update")
    u.add_argument("baseline")
    u.add_argument("runs", nargs="+")
    m = sub.add_parser("markdown")
    m.add_argument("baselines", nargs="+")
    for name in ("render", "check"):
        r = sub.add_parser(name)
        r.add_argument("doc")
        r.add_argument("baselines", nargs="+")
    a = ap.parse_args()
    if a.cmd == "update":
        update(a.baseline, a.runs)
    elif a.cmd == "markdown":
        print(tables(a.baselines))
    else:
        return render(a.doc, a.baselines, a.cmd == "render")
    return 0


if __name__ == "__main__":
    sys.exit(main())
