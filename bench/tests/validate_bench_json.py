"""Validates a `plumbline bench` JSON run: Google Benchmark's format, the context plumbline adds
(devices, measured peaks, build), and for every problem of the batch file on every device the
repetitions with their times and counters, none in error.
usage: validate_bench_json.py RUN.json BATCH_FILE"""
import json
import sys


def fail(msg):
    print(f"validate_bench_json: {msg}", file=sys.stderr)
    sys.exit(1)


def main(run_path, batch_path):
    with open(run_path) as f:
        run = json.load(f)
    ctx = run.get("context", {})
    for key in ("plumbline.build", "plumbline.kernels", "plumbline.repetitions"):
        if key not in ctx:
            fail(f"context lacks {key}")
    devices = sorted({k.split(".")[1] for k in ctx if k.startswith("device.")})
    if not devices:
        fail("context names no device")
    for d in devices:
        for field in ("name", "driver", "peak_gflops", "peak_gbps", "peaks_method"):
            if f"device.{d}.{field}" not in ctx:
                fail(f"context lacks device.{d}.{field}")
        if not float(ctx[f"device.{d}.peak_gflops"]) > 0 or not float(ctx[f"device.{d}.peak_gbps"]) > 0:
            fail(f"device {d}: peaks not measured")
    reps = int(ctx["plumbline.repetitions"])
    with open(batch_path) as f:
        lines = [l.split("#")[0].strip() for l in f]
    ops = [l.split(":")[0] for l in lines if l]
    runs = {}
    for b in run["benchmarks"]:
        if b.get("error_occurred"):
            fail(f"{b['name']}: {b.get('error_message')}")
        if b.get("run_type") != "iteration":
            continue
        for c in ("gflops", "gbps", "flops", "bytes"):
            if c not in b:
                fail(f"{b['name']}: no counter {c}")
        if "@cpu" not in b["name"] and "pct_peak_flops" not in b:
            fail(f"{b['name']}: no % of peak")
        if not b["real_time"] > 0:
            fail(f"{b['name']}: time {b['real_time']}")
        runs.setdefault(b["run_name"].split("/")[0], []).append(b)
    for d in devices:
        timed = [name for name in runs if name.endswith("@" + d)]
        if sorted(n.split(":")[0] for n in timed) != sorted(ops):
            fail(f"device {d}: benchmarks {sorted(timed)} do not match the batch's operators {sorted(ops)}")
    for name, rs in runs.items():
        if len(rs) != reps:
            fail(f"{name}: {len(rs)} repetitions, expected {reps}")
    print(f"{run_path}: valid ({len(runs)} benchmarks x {reps} repetitions on {', '.join(devices)})")


if __name__ == "__main__":
    main(*sys.argv[1:])
