"""PyTorch's own CPU kernels as a client (docs/verification.md, "Non-finite policies"): under the ieee
policy they pass on every value distribution; under limits, the edge cases where PyTorch evaluates the
formula as IEEE arithmetic does fail with the rule named, and a NaN that no evaluation of the defining
formula gives fails under both. Needs Debian's python3-torch (scripts/setup.sh installs it)."""
import unittest

import numpy as np
import torch
import torch.nn.functional as F

import plumbline

torch.set_num_threads(1)  # the test's time, not the kernels': one thread is PyTorch's serial CPU path


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def _stored(p, y):
    """What a kernel stores: float32 rounded to the problem's format."""
    return plumbline.round_to(y.numpy().astype(np.float32), p["dtype"])


ACTIVATIONS = {
    "none": lambda v: v,
    "relu": F.relu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "silu": F.silu,
    "gelu_tanh": lambda v: F.gelu(v, approximate="tanh"),
    "gelu_erf": F.gelu,
}


def act(p, i):
    return _stored(p, ACTIVATIONS[p["act"]](_t(i["x"])))


def matmul(p, i):
    a, b = _t(i["a"]), _t(i["b"])
    a = a.transpose(-1, -2) if p["ta"] else a
    b = b.transpose(-1, -2) if p["tb"] else b
    return _stored(p, torch.matmul(a, b))


def gemm_bias_act(p, i):
    bias = _t(i["bias"])
    pre = torch.matmul(_t(i["a"]), _t(i["b"])) + (bias if p["bshared"] or p["batch"] == 0 else bias.unsqueeze(-2))
    return _stored(p, ACTIVATIONS[p["act"]](pre))


def conv2d(p, i):
    bias = _t(i["bias"]) if p["bias"] else None
    y = F.conv2d(_t(i["x"]), _t(i["w"]), bias, (p["sh"], p["sw"]), (p["ph"], p["pw"]), (p["dh"], p["dw"]), p["g"])
    return _stored(p, y)


def softmax(p, i):
    return _stored(p, torch.softmax(_t(i["x"]), -1))


def log_softmax(p, i):
    return _stored(p, torch.log_softmax(_t(i["x"]), -1))


def layer_norm(p, i):
    x = _t(i["x"])
    return _stored(p, F.layer_norm(x, (x.shape[-1],), _t(i["gamma"]), _t(i["beta"]), p["eps"]))


def group_norm(p, i):
    x = _t(i["x"])
    n, c, h, w = x.shape
    return _stored(p, torch.native_group_norm(x, _t(i["gamma"]), _t(i["beta"]), n, c, h * w, p["g"], p["eps"])[0])


def cross_entropy(p, i):
    target = _t(i["target"])
    return _stored(p, F.cross_entropy(_t(i["logits"]), target.long() if p["labels"] == "index" else target))


def avg_pool2d(p, i):
    y = F.avg_pool2d(
        _t(i["x"]), (p["kh"], p["kw"]), (p["sh"], p["sw"]), (p["ph"], p["pw"]), count_include_pad=bool(p["cip"])
    )
    return _stored(p, y)


def max_pool2d(p, i):
    return _stored(p, F.max_pool2d(_t(i["x"]), (p["kh"], p["kw"]), (p["sh"], p["sw"]), (p["ph"], p["pw"])))


def conv2d_bwd_weight(p, i):
    x, dy = _t(i["x"]), _t(i["d_y"])
    shape = (p["k"], p["c"] // p["g"], p["r"], p["s"])
    d_w = torch.nn.grad.conv2d_weight(x, shape, dy, (p["sh"], p["sw"]), (p["ph"], p["pw"]), (p["dh"], p["dw"]), p["g"])
    return [_stored(p, d_w)] + ([_stored(p, dy.sum(dim=(0, 2, 3)))] if p["bias"] else [])


def act_bwd(p, i):
    x = _t(i["x"]).requires_grad_(True)
    return _stored(p, torch.autograd.grad(ACTIVATIONS[p["act"]](x), x, _t(i["d_y"]))[0])


def global_avg_pool(p, i):
    return _stored(p, _t(i["x"]).mean(dim=(2, 3)))


def _reduction(f):
    def reduce(p, i):
        x = _t(i["x"])
        return _stored(p, f(x) if p["over"] == "all" else f(x, dim=1))

    return reduce


KERNELS = {
    # the operators of the report that asked for this (softmax to max_pool2d), then the others PyTorch has
    "softmax": softmax,
    "log_softmax": log_softmax,
    "layer_norm": layer_norm,
    "matmul": matmul,
    "conv2d": conv2d,
    "act": act,
    "avg_pool2d": avg_pool2d,
    "max_pool2d": max_pool2d,
    "gemm_bias_act": gemm_bias_act,
    "cross_entropy": cross_entropy,
    "global_avg_pool": global_avg_pool,
    "sum": _reduction(torch.sum),
    "mean": _reduction(torch.mean),
    "add": lambda p, i: _stored(p, _t(i["a"]) + _t(i["b"])),
    "mul": lambda p, i: _stored(p, _t(i["a"]) * _t(i["b"])),
    "bias_add": lambda p, i: _stored(p, _t(i["x"]) + _t(i["bias"])),
    "transpose": lambda p, i: _stored(p, _t(i["x"]).t().contiguous()),
    "conv2d_bwd_weight": conv2d_bwd_weight,
}


class PyTorchUnderIeee(unittest.TestCase):
    def test_every_operator_passes_on_every_value_distribution(self):
        accepted = 0
        for op, fn in KERNELS.items():
            for values in ["integers", "uniform", "normal", "edge", "sparse"]:
                for seed in [1, 1000]:
                    with self.subTest(op=op, values=values, seed=seed):
                        r = plumbline.check(op, fn, cases=150, seed=seed, values=values, name=op, nonfinite="ieee")
                        self.assertTrue(r["passed"])
                        accepted += r["ieee_accepted"]
        self.assertGreater(accepted, 0)  # the policy did something: PyTorch's IEEE answers were met


class PyTorchUnderLimits(unittest.TestCase):
    """The four cases of the report, each failing with the rule its answer departs from, and passing
    under ieee."""

    CASES = [
        # gelu_tanh(-Inf): 0.5 x (1 + tanh(...)) = -Inf x 0 = NaN; its limit is -0
        ("act", "act:n=3,act=gelu_tanh,dtype=bf16", "edge", 2008, "non-finite: limit"),
        # an infinite weight meets only padding: 0 x Inf = NaN where the reference leaves padding out
        ("conv2d", "conv2d:n=1,c=1,h=1,w=1,k=1,r=3,s=3,ph=1,pw=1,dtype=bf16", "sparse", 1058, "non-finite: padding"),
        # x = 1e30 alone in its row: x^2 overflows in E[x^2] - mean^2 (Inf - Inf = NaN); the result is beta
        ("layer_norm", "layer_norm:m=1,n=1", "edge", 1012, "overflow"),
        # the window's sum overflows before the division; the average is 1.7e38
        (
            "avg_pool2d",
            "avg_pool2d:n=1,c=1,h=15,w=31,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0,cip=1,dtype=bf16",
            "edge",
            11,
            "overflow",
        ),
    ]

    def test_the_reports_cases_fail_with_their_rule_named(self):
        for op, line, values, seed, verdict in self.CASES:
            with self.subTest(problem=line):
                with self.assertRaises(plumbline.CheckFailure) as caught:
                    plumbline.check(op, KERNELS[op], problem=line, values=values, seed=seed, name=op)
                self.assertEqual(caught.exception.verdict, verdict)
                self.assertIn("--nonfinite ieee accepts it", str(caught.exception))
                r = plumbline.check(op, KERNELS[op], problem=line, values=values, seed=seed, name=op, nonfinite="ieee")
                self.assertTrue(r["passed"])
                self.assertGreater(r["ieee_accepted"], 0)

    def test_a_derivatives_limit_is_named_and_ieee_takes_its_nan(self):
        # gelu_tanh'(+Inf) = 0.5 (1 + t) + 0.5 x (1 - t^2) ...: Inf x 0 = NaN; its limit is 1 (d_x = d_y = 88.5)
        line = "act_bwd:n=1,act=gelu_tanh,dtype=bf16"
        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("act_bwd", act_bwd, problem=line, values="sparse", seed=10)
        self.assertEqual(caught.exception.verdict, "non-finite: limit")
        self.assertTrue(
            plumbline.check("act_bwd", act_bwd, problem=line, values="sparse", seed=10, nonfinite="ieee")["passed"]
        )

    def test_relus_derivative_at_nan_fails_under_both(self):
        # PyTorch selects 0 where x > 0 is false, NaN included; the reference propagates NaN (a NaN input
        # gives NaN), and no policy's rule is about NaN inputs.
        for nonfinite in ["limits", "ieee"]:
            with self.assertRaises(plumbline.CheckFailure) as caught:
                plumbline.check(
                    "act_bwd",
                    act_bwd,
                    problem="act_bwd:n=3,act=relu,dtype=f16",
                    values="edge",
                    seed=6,
                    nonfinite=nonfinite,
                )
            self.assertEqual(caught.exception.verdict, "non-finite")

    def test_a_nan_no_evaluation_of_the_formula_gives_fails_under_both(self):
        # PyTorch's group_norm folds gamma into one scale, x (rstd gamma) + (beta - mean rstd gamma): with an
        # infinite gamma that is Inf - Inf = NaN, where (x - mean) rstd gamma + beta is +-Inf.
        line = "group_norm:n=1,c=1,h=2,w=1,g=1,dtype=bf16"
        for nonfinite in ["limits", "ieee"]:
            with self.subTest(nonfinite=nonfinite):
                with self.assertRaises(plumbline.CheckFailure) as caught:
                    plumbline.check("group_norm", group_norm, problem=line, values="edge", seed=23, nonfinite=nonfinite)
                self.assertEqual(caught.exception.verdict, "non-finite")

    def test_a_policy_other_than_the_two_is_an_error(self):
        with self.assertRaises(plumbline.Error) as caught:
            plumbline.check("act", act, nonfinite="lenient")
        self.assertIn("limits (the default) and ieee", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
