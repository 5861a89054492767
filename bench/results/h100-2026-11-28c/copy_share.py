# python3 copy_share.py BENCH.json...: each benchmark's median time, GB/s and share of the run's copy
# bandwidth (the calibration kernel's, in the JSON's context)
import json, statistics, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    ctx = d.get("context", {})
    runs = {}
    for b in d["benchmarks"]:
        if b.get("run_type", "iteration") == "iteration" and "error_message" not in b:
            runs.setdefault(b["name"].split("/")[0], []).append(b)
    for name, bs in runs.items():
        dev = name.split("@")[-1]
        peak = float(ctx.get(f"device.{dev}.peak_gbps", "nan"))
        t = statistics.median(x["real_time"] for x in bs)
        gbps = statistics.median(x["gbps"] if "gbps" in x else x.get("bytes_per_second", 0) / 1e9 for x in bs)
        print(f"{path.split('/')[-1]:28s} {name:60s} {t:8.4f} {bs[0].get('time_unit')}  {gbps:7.1f} GB/s  {100 * gbps / peak:5.1f}% of copy ({peak:.0f})")
