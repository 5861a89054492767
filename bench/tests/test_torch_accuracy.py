#!/usr/bin/env python3
"""bench/peers/torch_accuracy.py: PyTorch's outputs judged under the exact contract's and the modes'
bounds. On the CPU here (no GPU in CI): PyTorch's float32 convolution and matmuls meet the exact bound,
and a product of inputs rounded to TF32 fails it and meets tf32's."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

import torch

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers", "torch_accuracy.py")
spec = importlib.util.spec_from_file_location("torch_accuracy", SCRIPT)
acc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(acc)


def to_tf32(x):
    """float32 values truncated to TF32's 10 explicit mantissa bits."""
    bits = x.float().view(torch.int32) & ~((1 << 13) - 1)
    return bits.view(torch.float32).double()


class TorchAccuracy(unittest.TestCase):
    def test_each_line_gets_the_first_mode_whose_bound_holds(self):
        lines = [
            "conv2d:n=1,c=4,h=6,w=6,k=3,r=3,s=3,ph=1,pw=1",
            "matmul:batch=0,m=5,k=40,n=6,ta=0,tb=1",
            "matmul:batch=2,m=3,k=20,n=4,ta=1,tb=0",
        ]
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "modes.json")
            r = subprocess.run(
                [sys.executable, SCRIPT, *lines, "--seeds", "1", "--json", out], capture_output=True, text=True
            )
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                rows = json.load(f)
        self.assertEqual([row["problem"] for row in rows], lines)
        for row in rows:
            self.assertEqual(row["mode"], "exact", row)
        self.assertEqual(rows[1]["k"], 40)

    def test_tf32_products_fail_exact_and_meet_tf32(self):
        gen = torch.Generator().manual_seed(5)
        a, b = acc.draw((32, 16), "uniform", gen, "cpu"), acc.draw((16, 24), "uniform", gen, "cpu")
        got = (to_tf32(a) @ to_tf32(b)).float().double()
        ratios = acc.ratios_of(got, a @ b, a.abs() @ b.abs(), 16)
        self.assertGreater(ratios["exact"], 1.0)
        self.assertLessEqual(ratios["tf32"], 1.0)
        exact = acc.ratios_of((a.float() @ b.float()).double(), a @ b, a.abs() @ b.abs(), 16)
        self.assertLessEqual(exact["exact"], 1.0)

    def test_an_operator_it_does_not_judge_is_named(self):
        r = subprocess.run([sys.executable, SCRIPT, "softmax:m=2,n=3"], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(
            "softmax: the operators judged here are conv2d, conv2d_bwd_data, conv2d_bwd_weight, matmul", r.stderr
        )


if __name__ == "__main__":
    unittest.main()
