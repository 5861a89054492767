"""Families and every line over 2.0 (ours / PyTorch, same dtype; FP32 with TF32 off) from calls 1 and 2.
Usage: python3 summarize.py c1/sbs/side_by_side.json c2/sbs/side_by_side.json"""
import json, math, sys

rows = [r for f in sys.argv[1:] for r in json.load(open(f))["rows"]]


def ratio(r):  # the same dtype's PyTorch: ratio_torch_fp32, _bf16 or _f16
    for key in ("ratio_torch_fp32", "ratio_torch_bf16", "ratio_torch_f16"):
        if r.get(key):
            return r[key]
    return None


families = {}
for r in rows:
    x = ratio(r)
    if x is None:
        continue
    dtype = "f16" if "dtype=f16" in r["problem"] else "bf16" if "dtype=bf16" in r["problem"] else "f32"
    depthwise = r["op"] == "conv2d" and "g=1," not in r["problem"]
    families.setdefault((r["op"] + (" depthwise" if depthwise else ""), dtype), []).append(x)
print("| family | dtype | problems | geomean | best | worst | above 2.0 |\n|---|---|---|---|---|---|---|")
for (op, dtype), v in sorted(families.items()):
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"| {op} | {dtype} | {len(v)} | {g:.2f} | {min(v):.2f} | {max(v):.2f} | {sum(x > 2 for x in v)} |")
print("\n| above 2.0 | ours (ms) | ours / PyTorch |\n|---|---|---|")
for r in rows:
    if (ratio(r) or 0) > 2:
        print(f"| `{r['problem']}` | {r['ours_s'] * 1e3:.3f} | {ratio(r):.2f} |")
