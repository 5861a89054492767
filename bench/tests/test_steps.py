"""steps.py's own tests (run by ctest with Debian's /usr/bin/python3): the per-step counters of a
launch-timed run, from the median aggregate where there is one, in the plan's order."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(HERE), "steps.py")
sys.path.insert(0, os.path.dirname(HERE))
import steps  # noqa: E402

NAME = "gemm_bias_act_bwd:m=8,k=8,n=8,act=relu,dtype=bf16@nvidia:0"


def entry(run_type, agg, t, s1, s2, label="variant wgmma_split"):
    b = {
        "name": NAME + ("/repeats:3_" + agg if agg else ""),
        "run_name": NAME + "/repeats:3",
        "run_type": run_type,
        "real_time": t,
        "label": label,
        "step_02 grad_pre_split": s2,
        "step_01 xgemm_mma_pre": s1,
    }
    if agg:
        b["aggregate_name"] = agg
    return b


class Steps(unittest.TestCase):
    def test_median_aggregate_in_plan_order(self):
        doc = {
            "benchmarks": [
                entry("iteration", None, 9.0, 1.0, 2.0),
                entry("aggregate", "mean", 5.0, 3.0, 4.0),
                entry("aggregate", "median", 0.5, 0.2, 0.3),
                {"name": "other", "run_type": "iteration", "real_time": 1.0},
            ]
        }
        rows = steps.step_rows(doc)
        self.assertEqual(len(rows), 1)
        name, total, label, st = rows[0]
        self.assertEqual(name, NAME.split("@")[0])
        self.assertEqual((total, label), (0.5, "variant wgmma_split"))
        self.assertEqual(st, [("xgemm_mma_pre", 0.2), ("grad_pre_split", 0.3)])

    def test_single_run_without_aggregates(self):
        rows = steps.step_rows({"benchmarks": [entry("iteration", None, 0.7, 0.25, 0.45)]})
        self.assertEqual(rows[0][3], [("xgemm_mma_pre", 0.25), ("grad_pre_split", 0.45)])

    def test_cli_prints_and_writes_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, out = os.path.join(tmp, "b.json"), os.path.join(tmp, "o.json")
            with open(src, "w") as f:
                json.dump({"benchmarks": [entry("aggregate", "median", 0.5, 0.2, 0.3)]}, f)
            r = subprocess.run([sys.executable, SCRIPT, src, "--json", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("xgemm_mma_pre 0.2000  grad_pre_split 0.3000", r.stdout)
            with open(out) as f:
                self.assertEqual(json.load(f)[0]["steps"], [["xgemm_mma_pre", 0.2], ["grad_pre_split", 0.3]])

    def test_no_steps_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "b.json")
            with open(src, "w") as f:
                json.dump({"benchmarks": [{"name": "x", "run_type": "iteration", "real_time": 1.0}]}, f)
            r = subprocess.run([sys.executable, SCRIPT, src], capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("no step counters", r.stderr)


if __name__ == "__main__":
    unittest.main()
