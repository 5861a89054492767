#!/usr/bin/python3
"""The regression gate: compare two Google Benchmark JSON runs of `plumbline bench`.

Per benchmark (matched by name, Google Benchmark's suffixes aside) it reports the change in median
time, the one-sided Mann-Whitney U p-value of "the new run is slower" (and of "faster"), and a verdict:
  regression   p_slower < alpha and the median slowed by more than the threshold
  improvement  p_faster < alpha and the median sped up by more than the threshold
  same         neither
  failed       the benchmark errored in the new run (its kernel failed its check) or vanished
  new          only in the new run
  drifted      the machine itself moved between the runs: its calibration kernels (peak FP32 FMA rate
               and copy bandwidth, recorded in each run's context) differ by more than the threshold, so
               a change in the kernel's time says nothing about the kernel: not judged
A comparison within one run, baseline and candidate interleaved, is immune to drift: `plumbline
bench --baseline-kernel-file/--baseline-ref` (docs/gate.md).
Both conditions matter: significance alone flags a 0.3% drift measured precisely, size alone flags
noise. Defaults: alpha 0.01, threshold 5%. Exit status 1 when any benchmark regressed or failed,
2 for unreadable input, 0 otherwise.

usage: compare.py BASELINE.json NEW.json [--alpha A] [--threshold T] [--json OUT]
"""
import argparse
import json
import math
import statistics
import sys

from scipy.stats import mannwhitneyu

UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
SUFFIXES = (
    "/min_time:",
    "/min_warmup_time:",
    "/repeats:",
    "/iterations:",
    "/manual_time",
    "/real_time",
    "/process_time",
)


def base_name(name):
    """The benchmark's own name: Google Benchmark appends its options after a '/'."""
    cut = len(name)
    for s in SUFFIXES:
        i = name.find(s)
        if i >= 0:
            cut = min(cut, i)
    return name[:cut]


class BadInput(Exception):
    pass


def load(path):
    """{name: [seconds per repetition]}, {name: error message} and the context of one run's file."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise BadInput(f"cannot read {path}: {e}")
    if not isinstance(data, dict) or "benchmarks" not in data:
        raise BadInput(f"{path} is not Google Benchmark JSON (no 'benchmarks')")
    return load_doc(data)


def load_doc(data):
    """load() of a parsed document."""
    times, errors = {}, {}
    for b in data["benchmarks"]:
        name = base_name(b.get("run_name", b["name"]))
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "error")
            continue
        if b.get("run_type", "iteration") != "iteration":
            continue
        times.setdefault(name, []).append(b["real_time"] * UNIT[b.get("time_unit", "ns")])
    return times, errors, data.get("context", {})


def device_drift(base_context, new_context, device, threshold):
    """How far the device's calibration peaks moved between two runs, in words, when beyond the threshold."""
    moved = []
    for key, what in (("peak_gflops", "peak FP32 FMA rate"), ("copy_gbps", "copy bandwidth")):
        k = f"device.{device}.{key}"
        # A run before the reads' calibration has no copy_gbps: its peak_gbps was the copy's.
        old = f"device.{device}.peak_gbps" if key == "copy_gbps" else k
        try:
            b, n = float(base_context.get(k, base_context.get(old))), float(new_context.get(k, new_context.get(old)))
        except (KeyError, TypeError, ValueError):
            continue
        if b > 0 and abs(n / b - 1) > threshold:
            moved.append(f"{what} {b:.1f} -> {n:.1f} ({(n / b - 1) * 100:+.1f}%)")
    return "; ".join(moved)


def compare(base, new, alpha=0.01, threshold=0.05):
    """The verdict of every benchmark: a list of dicts, in the baseline's order then the new ones."""
    (bt, _be, bctx), (nt, ne, nctx) = base, new
    rows = []
    for name in list(bt) + [n for n in list(nt) + list(ne) if n not in bt]:
        row = {"name": name}
        if name in ne:
            row.update(verdict="failed", message=ne[name])
        elif name not in nt:
            row.update(verdict="failed", message="missing from the new run")
        elif name not in bt:
            row.update(verdict="new", new_median_s=statistics.median(nt[name]), n_new=len(nt[name]))
        elif device_drift(bctx, nctx, name.rsplit("@", 1)[-1].split("+")[0], threshold):
            drift = device_drift(bctx, nctx, name.rsplit("@", 1)[-1].split("+")[0], threshold)
            row.update(
                verdict="drifted",
                baseline_median_s=statistics.median(bt[name]),
                new_median_s=statistics.median(nt[name]),
                message=f"machine drifted, not judged: {drift}",
            )
        else:
            b, n = bt[name], nt[name]
            mb, mn = statistics.median(b), statistics.median(n)
            change = mn / mb - 1
            p_slower = mannwhitneyu(n, b, alternative="greater").pvalue
            p_faster = mannwhitneyu(n, b, alternative="less").pvalue
            if p_slower < alpha and change > threshold:
                verdict = "regression"
            elif p_faster < alpha and change < -threshold:
                verdict = "improvement"
            else:
                verdict = "same"
            row.update(
                verdict=verdict,
                baseline_median_s=mb,
                new_median_s=mn,
                change=change,
                p_slower=p_slower,
                p_faster=p_faster,
                n_baseline=len(b),
                n_new=len(n),
            )
            if min(len(b), len(n)) < 5:
                row["message"] = "fewer than 5 repetitions: Mann-Whitney cannot reach alpha"
        rows.append(row)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description="Regression gate over two `plumbline bench` JSON runs")
    ap.add_argument("baseline")
    ap.add_argument("new")
    ap.add_argument("--alpha", type=float, default=0.01, help="significance level (default 0.01)")
    ap.add_argument("--threshold", type=float, default=0.05, help="smallest slowdown that counts (default 0.05 = 5%%)")
    ap.add_argument("--json", help="write the verdicts here (for the report)")
    a = ap.parse_args(argv)
    try:
        base, new = load(a.baseline), load(a.new)
    except BadInput as e:
        print(f"compare.py: error: {e}", file=sys.stderr)
        return 2
    # Times of one launch at a time and of launches back to back measure different things (the gaps
    # between launches): a change between them says nothing about a kernel.
    timings = [ctx.get("plumbline.timing", "launch") for ctx in (base[2], new[2])]
    if timings[0] != timings[1]:
        print(
            f"compare.py: error: the runs were timed differently ({a.baseline}: --timing {timings[0]}, "
            f"{a.new}: --timing {timings[1]}); compare runs of one timing",
            file=sys.stderr,
        )
        return 2
    rows = compare(base, new, a.alpha, a.threshold)
    bad = [r for r in rows if r["verdict"] in ("regression", "failed")]
    width = max([len(r["name"]) for r in rows] + [9])
    print(f"{'benchmark':<{width}}  {'baseline':>10}  {'new':>10}  {'change':>8}  {'p(slower)':>9}  verdict")
    for r in rows:
        if "change" in r:
            print(
                f"{r['name']:<{width}}  {r['baseline_median_s']*1e3:>8.3f}ms  {r['new_median_s']*1e3:>8.3f}ms  "
                f"{r['change']*100:>+7.1f}%  {r['p_slower']:>9.2g}  {r['verdict']}"
            )
        else:
            print(f"{r['name']:<{width}}  {'':>10}  {'':>10}  {'':>8}  {'':>9}  {r['verdict']}  {r.get('message', '')}")
    drifted = sum(r["verdict"] == "drifted" for r in rows)
    print(
        f"{len(bad)} of {len(rows)} benchmarks regressed or failed (alpha {a.alpha}, threshold {a.threshold:.0%})"
        + (f"; {drifted} not judged: the machine itself drifted between the runs" if drifted else "")
    )
    if a.json:
        out = {
            "kind": "regression",
            "baseline": a.baseline,
            "new": a.new,
            "alpha": a.alpha,
            "threshold": a.threshold,
            "baseline_context": base[2],
            "new_context": new[2],
            "benchmarks": rows,
            "regressions": sum(r["verdict"] == "regression" for r in rows),
            "failures": sum(r["verdict"] == "failed" for r in rows),
            "drifted": sum(r["verdict"] == "drifted" for r in rows),
        }
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1, default=lambda x: None if isinstance(x, float) and math.isnan(x) else x)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
