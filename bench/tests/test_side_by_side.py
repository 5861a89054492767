"""side_by_side.py's own tests (run by ctest with Debian's /usr/bin/python3): ratios from one pair of
runs, and several pairs merged, a later run's row replacing an earlier one's."""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(HERE), "side_by_side.py")
CTX = {"date": "test", "device.nvidia:0.peak_gflops": "1000", "device.nvidia:0.peak_gbps": "100"}


def doc(times_ms, ctx=CTX, flops=0, nbytes=0, labels=None):
    """A Google Benchmark JSON document: three repetitions per name, around the given median."""
    benchmarks = []
    for name, t in times_ms.items():
        for f in (0.9, 1.0, 1.2):
            benchmarks.append(
                {
                    "name": name,
                    "run_name": name + "/repeats:3/manual_time",
                    "run_type": "iteration",
                    "real_time": t * f,
                    "time_unit": "ms",
                    "flops": flops,
                    "bytes": nbytes,
                    "label": (labels or {}).get(name, ""),
                }
            )
    return {"context": dict(ctx), "benchmarks": benchmarks}


class SideBySide(unittest.TestCase):
    def run_script(self, *docs, gz=False, peer_modes=None):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i, d in enumerate(docs):
                path = os.path.join(tmp, f"{i}.json" + (".gz" if gz else ""))
                with gzip.open(path, "wt") if gz else open(path, "w") as f:
                    json.dump(d, f)
                paths.append(path)
            extra = []
            if peer_modes is not None:  # torch_accuracy.py's rows, TF32 off
                extra = ["--peer-modes", os.path.join(tmp, "modes.json")]
                with open(extra[1], "w") as f:
                    json.dump([{"problem": p, "mode": m} for p, m in peer_modes.items()], f)
            out = os.path.join(tmp, "out.json")
            r = subprocess.run(
                [sys.executable, SCRIPT, *paths, "--json", out, "--markdown", os.path.join(tmp, "out.md"), *extra],
                capture_output=True,
                text=True,
            )
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f, open(os.path.join(tmp, "out.md")) as md:
                self.markdown = md.read()
                return json.load(f), paths

    def test_one_pair(self):
        ours = doc({"add:n=8@nvidia:0": 2.0, "add:n=8@nvidia:0+clblast": 4.0}, flops=2e6, nbytes=1e5)
        torch = doc({"add:n=8@cuda:0+torch-fp32": 1.0})
        res, paths = self.run_script(ours, torch)
        (row,) = res["rows"]
        self.assertEqual(row["problem"], "add:n=8")
        self.assertAlmostEqual(row["ratio_torch_fp32"], 2.0)
        self.assertAlmostEqual(row["ratio_clblast"], 0.5)
        self.assertAlmostEqual(row["gflops"], 1.0)  # 2e6 FLOPs in 2 ms
        self.assertAlmostEqual(row["pct_peak_flops"], 0.1)  # of 1000 GFLOP/s
        self.assertEqual(row["run"], paths[0])

    def test_16_bit_rows_against_the_tensor_peak(self):
        ctx = dict(CTX, **{"device.nvidia:0.peak_tensor_gflops": "4000"})
        ours = doc({"matmul:m=8,dtype=bf16@nvidia:0": 2.0, "matmul:m=8@nvidia:0": 2.0}, ctx=ctx, flops=2e6, nbytes=1e5)
        torch = doc({"matmul:m=8,dtype=bf16@cuda:0+torch-fp32": 1.0, "matmul:m=8@cuda:0+torch-fp32": 1.0})
        res, _ = self.run_script(ours, torch)
        rows = {r["problem"]: r for r in res["rows"]}
        self.assertAlmostEqual(rows["matmul:m=8,dtype=bf16"]["pct_peak_flops"], 0.025)  # 1 GFLOP/s of 4000
        self.assertAlmostEqual(rows["matmul:m=8"]["pct_peak_flops"], 0.1)  # float32: of the FP32 peak, 1000

    def test_pairs_merge_later_wins(self):
        ours1 = doc({"add:n=8@nvidia:0": 2.0, "mul:n=8@nvidia:0": 3.0})
        torch1 = doc({"add:n=8@cuda:0+torch-fp32": 1.0, "mul:n=8@cuda:0+torch-fp32": 1.0})
        ours2 = doc({"mul:n=8@nvidia:0": 0.5})
        torch2 = doc({"mul:n=8@cuda:0+torch-fp32": 1.0})
        res, paths = self.run_script(ours1, torch1, ours2, torch2, gz=True)
        rows = {r["problem"]: r for r in res["rows"]}
        self.assertEqual(sorted(rows), ["add:n=8", "mul:n=8"])
        self.assertAlmostEqual(rows["add:n=8"]["ratio_torch_fp32"], 2.0)
        self.assertAlmostEqual(rows["mul:n=8"]["ratio_torch_fp32"], 0.5)  # the second run's
        self.assertEqual(rows["mul:n=8"]["run"], paths[2])
        self.assertIn(paths[2], res["context"]["side_by_side.runs"])

    def test_each_line_beside_the_peer_in_its_mode(self):
        # Our modes from the labels; PyTorch's conv2d output measured in tf32's bound with TF32 off.
        conv, wino, gemm, tf = "conv2d:n=1,c=8", "conv2d:n=1,c=9", "matmul:m=8", "matmul:m=9"
        bf16 = "matmul:m=8,dtype=bf16"
        ours = doc(
            {
                f"{conv}@nvidia:0": 2.0,
                f"{wino}@nvidia:0": 2.0,
                f"{gemm}@nvidia:0": 2.0,
                f"{tf}@nvidia:0": 2.0,
                f"{bf16}@nvidia:0": 2.0,
            },
            labels={
                f"{conv}@nvidia:0": "layer1, variant igemm",
                f"{wino}@nvidia:0": "variant winograd_f2x3, math winograd(2,3)",
                f"{gemm}@nvidia:0": "variant xgemm",
                f"{tf}@nvidia:0": "variant tf32, math tf32, sampled check",
            },
        )
        times = {}
        for p in (conv, wino, gemm, tf):
            times[f"{p}@cuda:0+torch-fp32"], times[f"{p}@cuda:0+torch-tf32"] = 1.0, 0.5
        times[f"{bf16}@cuda:0+torch-bf16"] = 0.25
        res, _ = self.run_script(ours, doc(times), peer_modes={conv: "tf32", wino: "tf32"})
        rows = {r["problem"]: r for r in res["rows"]}
        self.assertEqual([rows[p]["mode"] for p in (conv, wino, gemm, tf)], ["exact", "winograd(2,3)", "exact", "tf32"])
        self.assertNotIn("ratio_same_mode", rows[conv])  # an exact kernel is not set beside a tf32 peer
        self.assertEqual(rows[conv]["peer_mode"], "tf32")
        self.assertIn("| exact: - (PyTorch in tf32) |", self.markdown)
        self.assertAlmostEqual(rows[wino]["ratio_same_mode"], 2.0)  # beside cuDNN's own choice, TF32 off
        self.assertAlmostEqual(rows[gemm]["ratio_same_mode"], 2.0)  # its peer's mode not measured: FP32
        self.assertAlmostEqual(rows[tf]["ratio_same_mode"], 4.0)  # beside PyTorch with TF32 on
        self.assertIn("| tf32: 4.00 |", self.markdown)
        self.assertAlmostEqual(rows[bf16]["ratio_same_mode"], 8.0)  # a 16-bit line beside PyTorch in bf16

    def test_odd_file_count_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "a.json")
            with open(path, "w") as f:
                json.dump(doc({}), f)
            r = subprocess.run(
                [sys.executable, SCRIPT, path, "--json", os.path.join(tmp, "o.json")], capture_output=True, text=True
            )
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("pairs", r.stderr)


if __name__ == "__main__":
    unittest.main()
