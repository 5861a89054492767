"""The HTML report rendered in headless Chromium (Debian's chromium package) from fixture JSON: a run
with a kernel failure and a regression, and a clean run with a history. The page must show its
sections, the failure's shrunk problem and reproduce command, the regression with its p-value, and
render to a non-blank screenshot. JUnit XML must carry the failures.
Run by ctest with Debian's /usr/bin/python3."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import make_report  # noqa: E402

import matplotlib.image  # noqa: E402

REPRO = (
    "plumbline check max_pool2d_bwd --problem 'max_pool2d_bwd:n=1,c=1,h=2,w=2,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0' "
    "--values integers --seed 5 --device pocl:0 --kernel-file spread.cl --entry spread"
)


def bench_doc(scale, names=("matmul:batch=0,m=128,k=128,n=128,ta=0,tb=0@pocl:0", "softmax:m=256,n=512@pocl:0")):
    benchmarks = []
    for i, name in enumerate(names):
        for r in range(9):
            benchmarks.append(
                {
                    "name": name + "/repeats:9/manual_time",
                    "run_name": name + "/repeats:9/manual_time",
                    "run_type": "iteration",
                    "repetition_index": r,
                    "real_time": (1 + i) * scale * (1 + 0.01 * r),
                    "time_unit": "ms",
                    "gflops": 5.0 / scale,
                    "gbps": 1.0,
                    "flops": 4.2e6,
                    "bytes": 2e5,
                    "pct_peak_flops": 5.0,
                    "pct_peak_bw": 4.0,
                    "pct_roofline": 5.0,
                }
            )
    return {
        "context": {
            "device.pocl:0.name": "fixture CPU",
            "device.pocl:0.driver": "3.1",
            "device.pocl:0.peak_gflops": "100",
            "device.pocl:0.peak_gbps": "20",
            "plumbline.build": "fixture",
        },
        "benchmarks": benchmarks,
    }


def write(folder, name, doc):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as f:
        json.dump(doc, f)


def summary(passed, date, failing_step=None):
    steps = [
        {"name": n, "status": "FAIL" if n == failing_step else "pass", "seconds": 1.0, "details": "fixture"}
        for n in ("gradients", "kernels", "rules", "graphs", "benchmarks", "regression")
    ]
    return {"kind": "gate", "date": date, "device": "pocl:0", "cases": 100, "seed": 1, "steps": steps, "passed": passed}


def check_doc(failing):
    cases = [
        {
            "op": "softmax",
            "family": "softmax",
            "problem": "softmax:m=3,n=5",
            "device": "pocl:0",
            "values": "normal",
            "seed": i,
            "passed": True,
            "verdict": "pass",
            "message": "",
            "worst_ratio": 0.01 * (i + 1),
            "max_error": 1e-7,
            "seconds": 1e-5,
        }
        for i in range(20)
    ]
    # softmax in bf16 as well: the report shows its ratio apart from float32's
    cases.append(
        {
            "op": "softmax",
            "family": "softmax",
            "problem": "softmax:m=3,n=5,dtype=bf16",
            "device": "pocl:0",
            "values": "normal",
            "seed": 21,
            "passed": True,
            "verdict": "pass",
            "message": "",
            "worst_ratio": 0.97,
            "max_error": 1e-3,
            "seconds": 1e-5,
        }
    )
    # act judged under the ieee non-finite policy: the report says so beside its cell
    cases.append(
        {
            "op": "act",
            "family": "elementwise",
            "problem": "act:n=3,act=gelu_tanh",
            "device": "pocl:0",
            "values": "edge",
            "seed": 22,
            "passed": True,
            "verdict": "pass",
            "message": "",
            "worst_ratio": 0.1,
            "max_error": 1e-7,
            "seconds": 1e-5,
            "nonfinite": "ieee",
            "ieee_accepted": 1,
        }
    )
    # a conv2d variant judged in its numeric mode: the report names the mode
    cases.append(
        {
            "op": "conv2d",
            "family": "conv",
            "problem": "conv2d:h=4,w=4,r=3,s=3",
            "device": "pocl:0",
            "values": "normal",
            "seed": 23,
            "passed": True,
            "verdict": "pass",
            "message": "",
            "worst_ratio": 0.05,
            "max_error": 1e-6,
            "seconds": 1e-5,
            "math": "winograd(2,3)",
        }
    )
    failures = []
    if failing:
        cases.append(
            {
                "op": "max_pool2d_bwd",
                "family": "pooling",
                "problem": "max_pool2d_bwd:n=2,c=3,h=9,w=9",
                "device": "pocl:0",
                "values": "integers",
                "seed": 5,
                "passed": False,
                "verdict": "wrong",
                "message": "output 'd_x' element 0: kernel 0.25, reference 1 (exact mode: must be equal)",
                "worst_ratio": float("inf"),
                "max_error": 0.75,
                "seconds": 1e-5,
            }
        )
        failures.append(
            {
                "op": "max_pool2d_bwd",
                "device": "pocl:0",
                "verdict": "wrong",
                "message": "output 'd_x' element 0: kernel 0.25, reference 1",
                "problem": "max_pool2d_bwd:n=1,c=1,h=2,w=2,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0",
                "original": "max_pool2d_bwd:n=2,c=3,h=9,w=9",
                "values": "integers",
                "seed": 5,
                "repro": REPRO,
            }
        )
    return {
        "kind": "check",
        "kernel": "spread.cl" if failing else "plumbline's own",
        "cases": cases,
        "failures": failures,
    }


def common(folder):
    write(
        folder,
        "gradcheck.json",
        {
            "kind": "gradcheck",
            "failures": [],
            "cases": [
                {
                    "op": "softmax_bwd",
                    "problem": "softmax_bwd:m=2,n=3",
                    "seed": 1,
                    "mode": "full",
                    "passed": True,
                    "checks": 36,
                    "worst_ratio": 0.003,
                    "where": "d_x[1]",
                }
            ],
        },
    )
    write(
        folder,
        "rules.json",
        {
            "kind": "rules",
            "file": "training.rules",
            "rules": [
                {
                    "rule": "double-transpose",
                    "line": 1,
                    "numerics": "exact",
                    "evaluator": "reference",
                    "passed": True,
                    "instances": 40,
                    "evaluations": 160,
                    "worst_ratio": 0,
                    "covered": "",
                    "message": "",
                    "counterexample": "",
                    "repro": "",
                    "lhs": "",
                    "rhs": "",
                }
            ],
        },
    )
    write(
        folder,
        "graphs.json",
        {
            "kind": "graphs",
            "graphs": [
                {
                    "graph": "mlp_gelu",
                    "passed": True,
                    "message": "",
                    "gradient_checks": 50,
                    "gradient_worst_ratio": 0.01,
                    "nodes_before": 20,
                    "nodes_after": 18,
                    "cost_before_us": 29.5,
                    "cost_after_us": 25.3,
                    "equivalence_worst_ratio": 0,
                    "devices": [{"device": "pocl:0", "values": "normal", "passed": True}],
                }
            ],
        },
    )


class Report(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="plumbline_report_test_")
        self.addCleanup(shutil.rmtree, self.dir)

    def render(self, folder):
        self.assertEqual(make_report.main([folder]), 0)
        page = os.path.join(folder, "report.html")
        shot = os.path.join(folder, "shot.png")
        chrome = shutil.which("chromium") or shutil.which("chromium-browser")
        self.assertIsNotNone(chrome, "chromium is not installed (scripts/setup.sh installs it)")
        args = [
            chrome,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1280,3000",
        ]
        subprocess.run(args + [f"--screenshot={shot}", "file://" + page], check=True, capture_output=True, timeout=120)
        dom = subprocess.run(
            args + ["--dump-dom", "file://" + page], check=True, capture_output=True, text=True, timeout=120
        ).stdout
        pixels = matplotlib.image.imread(shot)
        self.assertGreater(pixels.shape[0], 1000)
        self.assertGreater(float(pixels.std()), 0.02, "the screenshot is blank")
        with open(page) as f:
            self.assertNotIn("http://", f.read().replace("http://www.w3.org", ""), "the report must not load anything")
        return dom

    def test_a_failing_run_shows_the_failure_its_repro_and_the_regression(self):
        run = os.path.join(self.dir, "failing")
        write(run, "summary.json", summary(False, "20261122T000000Z", "kernels"))
        write(run, "check.json", check_doc(failing=True))
        common(run)
        write(run, "bench.json", bench_doc(1.0))
        write(
            run,
            "regression.json",
            {
                "kind": "regression",
                "baseline": "history/base/bench.json",
                "new": "bench.json",
                "alpha": 0.01,
                "threshold": 0.05,
                "regressions": 1,
                "failures": 0,
                "benchmarks": [
                    {
                        "name": "matmul:batch=0,m=128,k=128,n=128,ta=0,tb=0@pocl:0",
                        "verdict": "regression",
                        "baseline_median_s": 0.001,
                        "new_median_s": 0.00112,
                        "change": 0.12,
                        "p_slower": 2.1e-5,
                        "p_faster": 1.0,
                        "n_baseline": 9,
                        "n_new": 9,
                    },
                    {
                        "name": "softmax:m=256,n=512@pocl:0",
                        "verdict": "same",
                        "baseline_median_s": 0.002,
                        "new_median_s": 0.002,
                        "change": 0.0,
                        "p_slower": 0.5,
                        "p_faster": 0.5,
                        "n_baseline": 9,
                        "n_new": 9,
                    },
                ],
            },
        )
        dom = self.render(run)
        for section in (
            "summary",
            "correctness",
            "failures",
            "ratios",
            "gradients",
            "rules",
            "benchmarks",
            "mutants",
            "trend",
        ):
            self.assertIn(f'id="{section}"', dom)
        self.assertIn("FAIL: something failed or regressed", dom)
        self.assertIn("under the ieee non-finite policy (1 elements passed as IEEE arithmetic gives them)", dom)
        self.assertIn("variants in the numeric modes winograd(2,3)", dom)
        self.assertIn("max_pool2d_bwd:n=1,c=1,h=2,w=2,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0", dom)  # the shrunk problem
        self.assertIn("plumbline check max_pool2d_bwd --problem", dom)  # its repro
        self.assertIn("--kernel-file spread.cl --entry spread", dom)
        self.assertIn("regression", dom)
        self.assertIn("2.1e-05", dom)  # the p-value
        self.assertIn("<img", dom)
        suites = {s.get("name"): s for s in ET.parse(os.path.join(run, "junit.xml")).getroot()}
        self.assertEqual(suites["kernels"].get("failures"), "1")
        self.assertEqual(suites["regression"].get("failures"), "1")
        self.assertIn(
            REPRO, ET.tostring(suites["kernels"], encoding="unicode").replace("&apos;", "'").replace("&quot;", '"')
        )

    def test_a_clean_run_with_history_passes_and_plots_the_trend(self):
        run = os.path.join(self.dir, "clean")
        for i, (date, scale) in enumerate(
            (("20261120T000000Z", 1.0), ("20261121T000000Z", 1.02), ("20261122T000000Z", 0.99))
        ):
            hist = os.path.join(run, "history", date)
            write(hist, "summary.json", summary(True, date))
            write(hist, "bench.json", bench_doc(scale))
        write(run, "summary.json", summary(True, "20261122T000000Z"))
        write(run, "check.json", check_doc(failing=False))
        common(run)
        write(run, "bench.json", bench_doc(0.99))
        dom = self.render(run)
        self.assertIn("PASS: every check passed", dom)
        self.assertIn("No failures.", dom)
        self.assertIn("21/21 pass, worst ratio f32 0.2, bf16 0.97", dom)  # a ratio per storage format
        self.assertIn("Trend over stored runs", dom)
        self.assertNotIn("trends need two", dom)
        suites = {s.get("name"): s for s in ET.parse(os.path.join(run, "junit.xml")).getroot()}
        self.assertTrue(all(s.get("failures") == "0" for s in suites.values()))


class Baselines(unittest.TestCase):
    def test_the_report_takes_the_baseline_of_the_runs_device_by_path(self):
        for path in sorted(os.listdir(os.path.join(make_report.SOURCE, "bench", "baselines"))):
            with open(os.path.join(make_report.SOURCE, "bench", "baselines", path)) as f:
                device = json.load(f)["device"]
            found = make_report.baseline_for({"device.nvidia:0.name": device, "device.nvidia:0.driver": "x"})
            self.assertEqual(os.path.basename(found), path)
        self.assertIsNone(make_report.baseline_for(bench_doc(1.0)["context"]))  # a device with no baseline: none shown


if __name__ == "__main__":
    unittest.main()
