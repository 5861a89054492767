#!/usr/bin/python3
"""Per-step times of multi-step plans from `plumbline bench --timing launch --json FILE`.

bench records each step's milliseconds an iteration as counters "step_NN ENTRY" (bench/suite.cpp); this
prints them per problem, from the median aggregate where the run has repetitions (else the single run):

    plumbline bench --device nvidia:0 --timing launch --repetitions 5 --json steps.json --batch B
    python3 bench/steps.py steps.json

One line a problem: name (without the @device part), total ms, bench's label, then each step's ms in
the plan's order. --json OUT writes the same as a list of {problem, total_ms, label, steps: [[entry, ms]]}.
"""
import argparse
import json
import sys


def step_rows(doc):
    """[(problem, total_ms, label, [(entry, ms), ...])] from a Google Benchmark document, in its order."""
    benchmarks = doc.get("benchmarks", [])
    has_median = any(b.get("aggregate_name") == "median" for b in benchmarks)
    rows = []
    for b in benchmarks:
        if has_median:
            if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median":
                continue
        elif b.get("run_type", "iteration") != "iteration":
            continue
        steps = sorted((k, v) for k, v in b.items() if k.startswith("step_"))
        if not steps:
            continue
        name = b.get("run_name", b["name"]).split("@")[0]
        # "step_01 ENTRY": the number keeps the plan's order; the entry point follows the space.
        rows.append(
            (name, b["real_time"], b.get("label", ""), [(k.split(" ", 1)[1] if " " in k else k, v) for k, v in steps])
        )
    return rows


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bench_json")
    ap.add_argument("--json", help="write the rows here as JSON")
    a = ap.parse_args(argv)
    with open(a.bench_json) as f:
        rows = step_rows(json.load(f))
    if not rows:
        print(
            f"steps.py: no step counters in {a.bench_json} (multi-step plans under --timing launch have them)",
            file=sys.stderr,
        )
        return 1
    for name, total, label, steps in rows:
        print(f"{name}  {total:.4f} ms  {label}  " + "  ".join(f"{e} {v:.4f}" for e, v in steps))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"problem": n, "total_ms": t, "label": l, "steps": s} for n, t, l, s in rows], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
