#!/usr/bin/python3
"""One self-contained HTML report (plots embedded, no network) and JUnit XML from what `plumbline gate`
wrote into its output folder: summary.json, gradcheck.json, check.json, sanitizer.json, rules.json, graphs.json,
bench.json, regression.json, mutants.json, history/*/ (earlier runs, for trends), and a GPU
side-by-side (OUT/side_by_side.json, else bench/baselines/<device>.json for the run's device).
Any of them may be missing: its section says so.

usage: make_report.py OUT_DIR [--html FILE] [--junit FILE] [--side-by-side FILE]
Runs with Debian's /usr/bin/python3 and python3-matplotlib."""
import argparse
import base64
import glob
import html
import io
import json
import math
import re
import os
import statistics
import sys
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)

CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;line-height:1.4}
h1{margin-bottom:0}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0;font-size:90%}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}
th{background:#f3f3f3}.pass{background:#e3f5e1}.fail{background:#fbdcdc;font-weight:bold}.skip{background:#f4f4f4;color:#777}
.banner{font-size:160%;padding:.5em 1em;border-radius:6px;margin:1em 0}.banner.pass{border:2px solid #3a3}.banner.fail{border:2px solid #c33}
pre{background:#f7f7f7;border:1px solid #ddd;padding:.5em;overflow-x:auto;font-size:85%}code{font-size:90%}
.note{color:#666;font-size:90%}img{max-width:100%}
"""


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError):
        return None


def esc(x):
    return html.escape(str(x))


def img(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return f'<img alt="plot" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}">'


def cls(ok):
    return "pass" if ok else "fail"


def fmt(v, spec=".3g"):
    if v is None:
        return "-"
    if isinstance(v, str):
        return esc(v)
    if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
        return str(v)
    return format(v, spec)


def anchor(*parts):
    return "x-" + "-".join("".join(c if c.isalnum() else "_" for c in str(p)) for p in parts)


# ---- sections ------------------------------------------------------------------------------------


def summary_section(summary):
    if not summary:
        return '<p class="note">No gate summary (summary.json) in this folder.</p>', None
    ok = summary.get("passed", False)
    rows = "".join(
        f'<tr class="{ {"pass": "pass", "skipped": "skip"}.get(s["status"], "fail") }"><td>{esc(s["name"])}</td>'
        f'<td>{esc(s["status"])}</td><td>{s["seconds"]:.1f}</td><td>{esc(s["details"])}</td></tr>'
        for s in summary["steps"]
    )
    banner = f'<div class="banner {cls(ok)}">{"PASS: every check passed" if ok else "FAIL: something failed or regressed"}</div>'
    meta = (
        f'<p class="note">run {esc(summary.get("date"))}, devices {esc(summary.get("device") or "all")}, '
        f'{summary.get("cases")} cases per operator and device, seed {summary.get("seed")}</p>'
    )
    return (
        banner + meta + f"<table><tr><th>step</th><th>status</th><th>seconds</th><th>details</th></tr>{rows}</table>",
        ok,
    )


def correctness_section(check):
    if not check:
        return '<p class="note">No kernel checks (check.json).</p>'
    cases = check["cases"]
    devices = sorted({c["device"] for c in cases})
    ops = list(dict.fromkeys(c["op"] for c in cases))
    cell, ieee, modes = {}, {}, {}
    for c in cases:
        k = (c["op"], c["device"])
        n, bad, worst, _ = cell.get(k, (0, 0, {}, 0))
        # Per storage format (the problem line's dtype, f32 when absent): their ratios mean different things.
        m = re.search(r"[:,]dtype=(\w+)", c.get("problem", ""))
        dt = m.group(1) if m else "f32"
        worst[dt] = max(worst.get(dt, 0.0), c["worst_ratio"] if c["worst_ratio"] is not None else math.inf)
        cell[k] = (
            n + 1,
            bad + (not c["passed"] and not c.get("skipped")),
            worst,
            cell.get(k, (0, 0, {}, 0))[3] + bool(c.get("skipped")),
        )
        if c.get("nonfinite") == "ieee":  # judged under the ieee non-finite policy (a plan line or --nonfinite)
            ieee[k] = ieee.get(k, 0) + c.get("ieee_accepted", 0)
        if c.get("math"):  # judged in a numeric mode (a plan's math line or --math)
            modes.setdefault(k, set()).add(c["math"])
    head = "".join(f"<th>{esc(d)}</th>" for d in devices)
    rows = []
    for op in ops:
        tds = []
        for d in devices:
            if (op, d) not in cell:
                tds.append('<td class="skip">-</td>')
                continue
            n, bad, worst, skipped = cell[(op, d)]
            link = f' <a href="#{anchor("fail", op, d)}">details</a>' if bad else ""
            link += f", {skipped} skipped (not judged)" if skipped else ""
            link += (
                f", under the ieee non-finite policy ({ieee[(op, d)]} elements passed as IEEE arithmetic gives them)"
                if (op, d) in ieee
                else ""
            )
            link += f", variants in the numeric modes {', '.join(sorted(modes[(op, d)]))}" if (op, d) in modes else ""
            ratios = (
                fmt(worst["f32"])
                if list(worst) == ["f32"]
                else ", ".join(f"{dt} {fmt(worst[dt])}" for dt in ("f32", "f16", "bf16") if dt in worst)
            )
            tds.append(f'<td class="{cls(bad == 0)}">{n - bad - skipped}/{n} pass, worst ratio {ratios}{link}</td>')
        rows.append(f"<tr><td><code>{esc(op)}</code></td>{''.join(tds)}</tr>")
    intro = (
        f'<p class="note">Kernels: {esc(check.get("kernel", ""))}. The worst error/bound ratio of each operator on each device: '
        "a healthy kernel sits well below 1; exact-mode mismatches and non-finite mismatches show as inf. "
        "Operators checked in f16 or bf16 show a ratio per storage format: there the final rounding alone may take "
        'a correct kernel up to 1 (docs/verification.md, "Reduced precision").</p>'
    )
    return intro + f"<table><tr><th>operator</th>{head}</tr>{''.join(rows)}</table>"


def sanitizer_section(sanitizer):
    if not sanitizer:
        return '<p class="note">No sanitizer pass (sanitizer.json): the gate ran with --no-sanitize.</p>'
    intro = (
        '<p class="note">Every variant on Oclgrind, a device simulator: data races, uninitialized values, barriers not every '
        'work-item reaches, accesses out of bounds (docs/verification.md, "Concurrency"). Its failures are among the failures below.</p>'
    )
    return intro + correctness_section(sanitizer)


def failures_section(check, grad, sanitizer=None):
    items = []
    for f in (check or {}).get("failures", []) + (sanitizer or {}).get("failures", []):
        items.append(
            f'<div id="{anchor("fail", f["op"], f["device"])}"><h3>{esc(f["op"])} on {esc(f["device"])}: {esc(f["verdict"])}</h3>'
            f'<p>{esc(f["message"])}</p><p>shrunk problem: <code>{esc(f["problem"])}</code> '
            f'(values {esc(f["values"])}, seed {f["seed"]}; shrunk from <code>{esc(f["original"])}</code>)</p>'
            f'<p>reproduce:</p><pre>{esc(f["repro"])}</pre></div>'
        )
    for f in (grad or {}).get("failures", []):
        items.append(
            f'<div id="{anchor("gradfail", f["op"])}"><h3>gradient of {esc(f["op"])}</h3><p>{esc(f["message"])}</p>'
            f'<p>shrunk problem: <code>{esc(f["problem"])}</code></p><p>reproduce:</p><pre>{esc(f["repro"])}</pre></div>'
        )
    return "".join(items) if items else "<p>No failures.</p>"


def ratio_plots(check, grad):
    parts = []
    if check and check["cases"]:
        fams = {}
        for c in check["cases"]:
            r = c["worst_ratio"]
            if r is not None and r > 0 and math.isfinite(r):
                fams.setdefault(c.get("family", "?"), []).append(math.log10(r))
        if fams:
            fig, ax = plt.subplots(figsize=(9, 3.5))
            ax.hist(list(fams.values()), bins=40, stacked=True, label=list(fams.keys()))
            ax.axvline(0, color="red", linestyle="--", label="bound")
            ax.set_xlabel("log10(worst error / bound) per case")
            ax.set_ylabel("cases")
            ax.legend(fontsize=8)
            ax.set_title("Kernel error / bound ratios (below 0: within the bound)")
            parts.append(img(fig))
    if grad and grad["cases"]:
        vals = [
            math.log10(c["worst_ratio"])
            for c in grad["cases"]
            if c["worst_ratio"] and math.isfinite(c["worst_ratio"]) and c["worst_ratio"] > 0
        ]
        if vals:
            fig, ax = plt.subplots(figsize=(9, 3))
            ax.hist(vals, bins=40, color="#4a7")
            ax.axvline(0, color="red", linestyle="--")
            ax.set_xlabel("log10(|analytic - numeric| / allowed) per case")
            ax.set_title("Gradient checks (below 0: pass)")
            parts.append(img(fig))
    return "".join(parts) or '<p class="note">No ratios to plot.</p>'


def gradcheck_section(grad):
    if not grad:
        return '<p class="note">No gradient checks (gradcheck.json).</p>'
    per = {}
    for c in grad["cases"]:
        n, bad, worst = per.get(c["op"], (0, 0, 0.0))
        per[c["op"]] = (n + 1, bad + (not c["passed"]), max(worst, c["worst_ratio"]))
    rows = "".join(
        f'<tr class="{cls(b == 0)}"><td><code>{esc(op)}</code></td><td>{n}</td><td>{b}</td><td>{fmt(w)}</td></tr>'
        for op, (n, b, w) in per.items()
    )
    return f"<table><tr><th>backward</th><th>cases</th><th>failed</th><th>worst ratio</th></tr>{rows}</table>"


def rules_section(rules, graphs):
    out = []
    if rules:
        rows = []
        for r in rules["rules"]:
            rows.append(
                f'<tr class="{cls(r["passed"])}"><td><code>{esc(r["rule"])}</code></td><td>{esc(r["evaluator"])}</td>'
                f'<td>{esc(r["numerics"])}</td><td>{r["instances"]}</td><td>{r["evaluations"]}</td><td>{fmt(r["worst_ratio"])}</td>'
                f'<td>{"pass" if r["passed"] else "FAIL"}</td></tr>'
            )
        out.append(
            f'<p class="note">Rules file: {esc(rules.get("file"))}</p><table><tr><th>rule</th><th>evaluator</th><th>numerics</th>'
            f'<th>instances</th><th>evaluations</th><th>worst ratio</th><th>verdict</th></tr>{"".join(rows)}</table>'
        )
        for r in rules["rules"]:
            if not r["passed"]:
                out.append(
                    f'<h3 id="{anchor("rule", r["rule"], r["evaluator"])}">counterexample: {esc(r["rule"])}</h3>'
                    f'<pre>{esc(r["counterexample"])}</pre><pre>{esc(r["repro"])}</pre>'
                )
    else:
        out.append('<p class="note">No rule checks (rules.json).</p>')
    if graphs:
        rows = []
        for g in graphs["graphs"]:
            devs = ", ".join(f'{d["device"]} {d["values"]}: {"pass" if d["passed"] else "FAIL"}' for d in g["devices"])
            rows.append(
                f'<tr class="{cls(g["passed"])}"><td>{esc(g["graph"])}</td><td>{g["gradient_checks"]} checks, worst {fmt(g["gradient_worst_ratio"])}</td>'
                f'<td>{g["nodes_before"]} &rarr; {g["nodes_after"]}</td><td>{g["cost_before_us"]:.1f} &rarr; {g["cost_after_us"]:.1f} us</td>'
                f'<td>{fmt(g["equivalence_worst_ratio"])}</td><td>{esc(devs)}</td><td>{esc(g["message"])}</td></tr>'
            )
        out.append(
            "<h3>Whole training graphs</h3><table><tr><th>graph</th><th>gradients vs finite differences</th><th>nodes</th>"
            f"<th>modelled cost</th><th>optimized vs original (ratio)</th><th>devices</th><th>problem</th></tr>{''.join(rows)}</table>"
        )
    return "".join(out)


def bench_rows(bench):
    """[(name, problem, where, median_s, counters, label)] from Google Benchmark JSON."""
    times, meta = {}, {}
    for b in bench["benchmarks"]:
        name = b.get("run_name", b["name"]).split("/")[0]
        if b.get("error_occurred"):
            meta[name] = ({}, "ERROR: " + b.get("error_message", ""))
            times.setdefault(name, [])
            continue
        if b.get("run_type") != "iteration":
            continue
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
        times.setdefault(name, []).append(b["real_time"] * unit)
        meta[name] = (b, b.get("label", ""))
    rows = []
    for name, ts in times.items():
        problem, _, where = name.rpartition("@")
        b, label = meta.get(name, ({}, ""))
        rows.append((name, problem, where, statistics.median(ts) if ts else None, b, label))
    return rows


def bench_section(bench, regression, side):
    out = []
    if bench:
        rows = bench_rows(bench)
        ctx = bench.get("context", {})
        devs = sorted({k.split(".")[1] for k in ctx if k.startswith("device.")})
        out.append(
            "<p class='note'>"
            + "; ".join(
                f'{esc(d)}: {esc(ctx.get(f"device.{d}.name"))}, driver {esc(ctx.get(f"device.{d}.driver"))}, peaks measured '
                f'{float(ctx.get(f"device.{d}.peak_gflops", 0)):.0f} GFLOP/s and {float(ctx.get(f"device.{d}.peak_gbps", 0)):.1f} GB/s'
                for d in devs
            )
            + f'; build {esc(ctx.get("plumbline.build"))}</p>'
        )
        trs = []
        for name, problem, where, t, b, label in rows:
            ok = t is not None
            trs.append(
                f'<tr class="{cls(ok)}"><td><code>{esc(problem)}</code></td><td>{esc(where)}</td><td>{fmt(t * 1e3 if ok else None, ".4g")}</td>'
                f'<td>{fmt(b.get("gflops"), ".4g")}</td><td>{fmt(b.get("gbps"), ".4g")}</td><td>{fmt(b.get("pct_peak_flops"), ".3g")}</td>'
                f'<td>{fmt(b.get("pct_peak_bw"), ".3g")}</td><td>{fmt(b.get("pct_roofline"), ".3g")}</td><td>{esc(label)}</td></tr>'
            )
        out.append(
            "<table><tr><th>problem</th><th>where</th><th>median ms</th><th>GFLOP/s</th><th>GB/s</th><th>% FLOP peak</th>"
            f"<th>% bandwidth</th><th>% roofline</th><th>note</th></tr>{''.join(trs)}</table>"
        )
        timed = [r for r in rows if r[3]]
        problems = list(dict.fromkeys(r[1] for r in timed))
        wheres = list(dict.fromkeys(r[2] for r in timed))
        if problems:
            fig, ax = plt.subplots(figsize=(10, 0.35 * len(problems) + 1.5))
            h = 0.8 / max(1, len(wheres))
            for i, w in enumerate(wheres):
                vals = [next((r[4].get("gflops", 0) for r in timed if r[1] == p and r[2] == w), 0) for p in problems]
                ax.barh([j + i * h for j in range(len(problems))], vals, height=h, label=w)
            ax.set_yticks([j + 0.4 - h / 2 for j in range(len(problems))])
            ax.set_yticklabels([p.split(",")[0] + "..." for p in problems], fontsize=7)
            ax.set_xscale("log")
            ax.set_xlabel("GFLOP/s (log)")
            ax.legend(fontsize=8)
            ax.set_title("Throughput per problem, ours and peers")
            out.append(img(fig))
            fig, ax = plt.subplots(figsize=(7, 4.5))
            for d in devs:
                pf, pb = float(ctx[f"device.{d}.peak_gflops"]), float(ctx[f"device.{d}.peak_gbps"])
                ai = [10 ** (x / 10) for x in range(-30, 31)]
                ax.plot(ai, [min(pf, a * pb) for a in ai], label=f"{d} roofline (measured)")
                pts = [
                    (r[4]["flops"] / r[4]["bytes"], r[4]["gflops"])
                    for r in timed
                    if r[2] == d and r[4].get("bytes") and r[4].get("flops")
                ]
                if pts:
                    ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=12, label=f"{d} kernels")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("arithmetic intensity (FLOP/byte)")
            ax.set_ylabel("GFLOP/s")
            ax.legend(fontsize=8)
            ax.set_title("Roofline: % of peak per shape")
            out.append(img(fig))
    else:
        out.append('<p class="note">No benchmarks in this run (bench.json).</p>')
    out.append("<h3>Regressions</h3>")
    if regression:
        trs = "".join(
            f'<tr class="{cls(r["verdict"] not in ("regression", "failed"))}"><td><code>{esc(r["name"])}</code></td>'
            f'<td>{fmt(r.get("baseline_median_s", 0) * 1e3 if "baseline_median_s" in r else None, ".4g")}</td>'
            f'<td>{fmt(r.get("new_median_s", 0) * 1e3 if "new_median_s" in r else None, ".4g")}</td>'
            f'<td>{fmt(r["change"] * 100 if "change" in r else None, "+.1f")}</td><td>{fmt(r.get("p_slower"), ".2g")}</td>'
            f'<td>{esc(r["verdict"])}</td><td>{esc(r.get("message", ""))}</td></tr>'
            for r in regression["benchmarks"]
        )
        out.append(
            f'<p class="note">baseline {esc(regression["baseline"])}; a regression needs p(slower) &lt; {regression["alpha"]} and a '
            f'slowdown over {regression["threshold"]:.0%}</p><table><tr><th>benchmark</th><th>baseline ms</th><th>new ms</th>'
            f"<th>change %</th><th>p(slower)</th><th>verdict</th><th>note</th></tr>{trs}</table>"
        )
    else:
        out.append('<p class="note">No regression comparison in this run (no baseline yet, or benchmarks skipped).</p>')
    if side:
        rows = side["rows"]
        ctx = side.get("context", {})
        if side.get("kind") == "baseline":  # bench/baselines/<device>.json: each row with its own run's date
            dates = sorted({r.get("date", "") for r in rows})
            about = (
                f'{esc(side.get("device", ""))}, driver {esc(", ".join(sorted({r.get("driver", "") for r in rows})))}, '
                f'PyTorch {esc(", ".join(sorted({r.get("torch", "") for r in rows})))}, measured {esc(dates[0])} to {esc(dates[-1])}'
            )
        else:
            about = (
                f'{esc(ctx.get("device.nvidia:0.name", ""))}, driver {esc(ctx.get("device.nvidia:0.driver", ""))}, '
                f'PyTorch {esc(ctx.get("torch.torch", ""))}, measured {esc(ctx.get("date", ""))}'
                + (
                    f' (the first of the runs merged, each row from the last that has it: {esc(ctx["side_by_side.runs"])})'
                    if "side_by_side.runs" in ctx
                    else ""
                )
            )
        out.append(
            f'<h3>Stored GPU comparison</h3><p class="note">{esc(side.get("source", ""))}: {about}. Ratio = our time / the peer\'s.</p>'
        )
        fams = {}
        for r in rows:
            fams.setdefault(r["op"], []).append(r)
        labels, fp32, tf32, clb = [], [], [], []
        for op, rs in fams.items():

            def gm(k):
                v = [x[k] for x in rs if k in x]
                return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")

            labels.append(op)
            fp32.append(gm("ratio_torch_fp32"))
            tf32.append(gm("ratio_torch_tf32"))
            clb.append(gm("ratio_clblast"))
        fig, ax = plt.subplots(figsize=(10, 0.3 * len(labels) + 1.5))
        y = range(len(labels))
        ax.barh([i - 0.27 for i in y], fp32, height=0.27, label="ours / cuDNN-cuBLAS FP32")
        ax.barh(list(y), tf32, height=0.27, label="ours / TF32")
        ax.barh([i + 0.27 for i in y], clb, height=0.27, label="ours / CLBlast")
        ax.axvline(1, color="black", linewidth=0.8)
        ax.set_yticks(list(y))
        ax.set_yticklabels(labels, fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("time ratio, geometric mean per operator (log; above 1: we are slower)")
        ax.legend(fontsize=8)
        out.append(img(fig))
    return "".join(out)


def mutants_section(mutants):
    if not mutants:
        return '<p class="note">No mutation run (mutants.json).</p>'
    rows = "".join(
        f'<tr class="{cls(m["killed"] or m.get("equivalent"))}"><td><code>{esc(m["name"])}</code></td><td>{esc(m["op"])}</td>'
        f'<td>{esc(m["kind"])}</td><td>{esc(m["description"])}</td><td>{"killed" if m["killed"] else ("equivalent" if m.get("equivalent") else "SURVIVED")}</td>'
        f'<td>{fmt(m.get("cases_to_detection"))}</td><td><code>{esc(m.get("repro", ""))}</code></td></tr>'
        for m in mutants["mutants"]
    )
    head = f'<p>{esc(mutants.get("summary", ""))}</p>'
    return head + (
        "<table><tr><th>mutant</th><th>operator</th><th>kind</th><th>description</th><th>result</th>"
        f"<th>cases to detection</th><th>repro</th></tr>{rows}</table>"
    )


def trend_section(out_dir):
    runs = sorted(glob.glob(os.path.join(out_dir, "history", "*", "summary.json")))
    if len(runs) < 2:
        return f'<p class="note">{len(runs)} stored run(s) in history/: trends need two.</p>'
    dates, fails, totals = [], [], {}
    medians = {}
    for path in runs:
        s = load(path)
        d = os.path.basename(os.path.dirname(path))
        dates.append(d)
        fails.append(sum(st["status"] not in ("pass", "skipped") for st in s["steps"]))
        b = load(os.path.join(os.path.dirname(path), "bench.json"))
        if b:
            for name, problem, where, t, _, _ in bench_rows(b):
                if t:
                    medians.setdefault(name, {})[d] = t
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
    a1.plot(dates, fails, marker="o")
    a1.set_ylabel("failed steps")
    a1.set_title("Trend over stored runs")
    for name, series in list(medians.items())[:12]:
        xs = [d for d in dates if d in series]
        if len(xs) >= 2:
            first = series[xs[0]]
            a2.plot(
                xs,
                [series[x] / first for x in xs],
                marker=".",
                label=name.split(",")[0] + "...@" + name.rpartition("@")[2],
            )
    a2.set_ylabel("median time / first run")
    a2.legend(fontsize=6, ncol=2)
    plt.setp(a2.get_xticklabels(), rotation=30, fontsize=7)
    return img(fig)


# ---- JUnit ---------------------------------------------------------------------------------------


def junit(out_dir, data):
    suites = ET.Element("testsuites", name="plumbline gate")

    def suite(name, cases):
        s = ET.SubElement(
            suites, "testsuite", name=name, tests=str(len(cases)), failures=str(sum(1 for c in cases if c[1]))
        )
        for case_name, failure in cases:
            tc = ET.SubElement(s, "testcase", classname=f"plumbline.{name}", name=case_name)
            if failure:
                ET.SubElement(tc, "failure", message=failure[:200]).text = failure

    check, grad, rules, graphs, bench, regression = (
        data.get(k) for k in ("check", "gradcheck", "rules", "graphs", "bench", "regression")
    )
    if grad:
        per = {}
        for c in grad["cases"]:
            per.setdefault(c["op"], [])
            if not c["passed"]:
                per[c["op"]].append(f'{c["problem"]} seed {c["seed"]}: {c["where"]}')
        fails = {f["op"]: f'{f["message"]}\nrepro: {f["repro"]}' for f in grad.get("failures", [])}
        suite("gradients", [(op, fails.get(op) or ("; ".join(v) if v else None)) for op, v in per.items()])
    for name, checked in (("kernels", check), ("sanitizer", data.get("sanitizer"))):
        if not checked:
            continue
        per = {}
        for c in checked["cases"]:
            per.setdefault((c["op"], c["device"]), [])
            if not c["passed"] and not c.get("skipped"):
                per[(c["op"], c["device"])].append(f'{c["verdict"]}: {c["message"]}')
        fails = {
            (f["op"], f["device"]): f'{f["message"]}\nproblem: {f["problem"]}\nrepro: {f["repro"]}'
            for f in checked.get("failures", [])
        }
        suite(
            name, [(f"{op} on {d}", fails.get((op, d)) or ("; ".join(v) if v else None)) for (op, d), v in per.items()]
        )
    if rules:
        suite(
            "rules",
            [
                (
                    f'{r["rule"]} ({r["evaluator"]})',
                    None if r["passed"] else f'{r["message"]}\n{r["counterexample"]}\nrepro: {r["repro"]}',
                )
                for r in rules["rules"]
            ],
        )
    if graphs:
        suite(
            "graphs",
            [(g["graph"], None if g["passed"] else g["message"] or "failed on a device") for g in graphs["graphs"]],
        )
    if bench:
        suite(
            "benchmarks",
            [(name, label if label.startswith("ERROR") else None) for name, _, _, _, _, label in bench_rows(bench)],
        )
    if regression:
        suite(
            "regression",
            [
                (
                    r["name"],
                    None
                    if r["verdict"] not in ("regression", "failed")
                    else f'{r["verdict"]}: change {r.get("change", 0) * 100:+.1f}%, p {r.get("p_slower", "-")} {r.get("message", "")}',
                )
                for r in regression["benchmarks"]
            ],
        )
    return ET.ElementTree(suites)


def baseline_for(ctx):
    """bench/baselines/<device>.json of a device the run's bench measured, else None."""
    names = {v for k, v in ctx.items() if k.startswith("device.") and k.endswith(".name")}
    for path in sorted(glob.glob(os.path.join(SOURCE, "bench", "baselines", "*.json"))):
        with open(path) as f:
            if json.load(f).get("device") in names:
                return path
    return None


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--html")
    ap.add_argument("--junit")
    ap.add_argument("--side-by-side")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.out):
        print(f"make_report.py: error: {a.out} is not a folder", file=sys.stderr)
        return 2
    data = {
        k: load(os.path.join(a.out, k + ".json"))
        for k in ("summary", "gradcheck", "check", "sanitizer", "rules", "graphs", "bench", "regression", "mutants")
    }
    side_path = a.side_by_side or (
        os.path.join(a.out, "side_by_side.json") if os.path.exists(os.path.join(a.out, "side_by_side.json")) else None
    )
    if not side_path:
        side_path = baseline_for((data["bench"] or {}).get("context", {}))
    side = load(side_path) if side_path else None
    if side:
        side["source"] = os.path.relpath(side_path, SOURCE) if side_path.startswith(SOURCE) else side_path
    summary_html, ok = summary_section(data["summary"])
    sections = [
        ("summary", "Summary", summary_html),
        ("correctness", "Correctness: operator x device", correctness_section(data["check"])),
        ("sanitizer", "Sanitizer: operator x simulator", sanitizer_section(data["sanitizer"])),
        ("failures", "Failures", failures_section(data["check"], data["gradcheck"], data["sanitizer"])),
        ("ratios", "Error / bound ratios", ratio_plots(data["check"], data["gradcheck"])),
        ("gradients", "Gradient checks", gradcheck_section(data["gradcheck"])),
        ("rules", "Rewrite rules and training graphs", rules_section(data["rules"], data["graphs"])),
        ("benchmarks", "Benchmarks, peers and regressions", bench_section(data["bench"], data["regression"], side)),
        ("mutants", "Detection power (mutation testing)", mutants_section(data["mutants"])),
        ("trend", "Trend over stored runs", trend_section(a.out)),
    ]
    nav = " &middot; ".join(f'<a href="#{sid}">{esc(title)}</a>' for sid, title, _ in sections)
    body = "".join(f'<h2 id="{sid}">{esc(title)}</h2>{content}' for sid, title, content in sections)
    page = (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>plumbline report</title><style>{CSS}</style></head>'
        f'<body><h1>plumbline report</h1><p class="note">{nav}</p>{body}</body></html>'
    )
    html_path = a.html or os.path.join(a.out, "report.html")
    with open(html_path, "w") as f:
        f.write(page)
    junit(a.out, data).write(a.junit or os.path.join(a.out, "junit.xml"), encoding="utf-8", xml_declaration=True)
    print(f"report: {html_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
