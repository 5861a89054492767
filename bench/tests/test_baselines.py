"""bench/baselines.py: a run's rows replace the baseline's rows of the same problem and keep the run's
date and driver; a run of another device is refused; docs/performance.md's tables are the baselines'."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(SOURCE, "bench", "baselines.py")


def run_doc(device, date, rows):
    return {
        "kind": "side_by_side",
        "context": {
            "date": date,
            "device.nvidia:0.name": device,
            "device.nvidia:0.driver": "580",
            "torch.torch": "2.11",
            "torch.cudnn": "91900",
            "plumbline.build": "abc",
        },
        "rows": [
            {
                "problem": p,
                "op": p.split(":")[0],
                "device": "nvidia:0",
                "ours_s": t,
                "torch_fp32_s": 2 * t,
                "ratio_torch_fp32": 0.5,
            }
            for p, t in rows
        ],
    }


class Baselines(unittest.TestCase):
    def tool(self, *args):
        return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)

    def test_rows_are_replaced_by_problem_and_keep_their_run(self):
        with tempfile.TemporaryDirectory() as d:
            old, new, base = (os.path.join(d, n) for n in ("old.json", "new.json", "gpu.json"))
            json.dump(run_doc("GPU", "2026-11-01T00:00:00", [("sum:m=1", 1e-3), ("act:n=8", 2e-3)]), open(old, "w"))
            json.dump(run_doc("GPU", "2026-12-01T00:00:00", [("sum:m=1", 5e-4)]), open(new, "w"))
            self.assertEqual(self.tool("update", base, old).returncode, 0)
            self.assertEqual(self.tool("update", base, new).returncode, 0)
            rows = {r["problem"]: r for r in json.load(open(base))["rows"]}
            self.assertEqual(rows["sum:m=1"]["ours_s"], 5e-4)
            self.assertEqual(rows["sum:m=1"]["date"], "2026-12-01")
            self.assertEqual(rows["act:n=8"]["date"], "2026-11-01")
            other = os.path.join(d, "other.json")
            json.dump(run_doc("Another GPU", "2026-12-02T00:00:00", [("sum:m=1", 1e-4)]), open(other, "w"))
            refused = self.tool("update", base, other)
            self.assertNotEqual(refused.returncode, 0)
            self.assertIn("Another GPU", refused.stderr)

    def test_the_performance_doc_holds_the_baselines_tables(self):
        baselines = sorted(glob.glob(os.path.join(SOURCE, "bench", "baselines", "*.json")))
        self.assertTrue(baselines)
        result = self.tool("check", os.path.join(SOURCE, "docs", "performance.md"), *baselines)
        self.assertEqual(result.returncode, 0, result.stderr)


if __name__ == "__main__":
    unittest.main()
