"""plumbline's Python API: check any implementation of a neural-network operator (NumPy, PyTorch,
Triton, CuPy, a compiled kernel: anything Python can call) against plumbline's double-precision
references, with the same problems, inputs, error bounds, shrinking and repro lines as
`plumbline check`. See docs/python.md.

    import numpy as np, plumbline
    def softmax(problem, inputs):
        x = inputs["x"].astype(np.float64)
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    plumbline.check("softmax", softmax, cases=50)   # raises plumbline.CheckFailure with a repro
"""
from ._plumbline import Error, attributes, canonical, operators, signature
from ._plumbline import check as _check
from ._plumbline import gradcheck as _gradcheck
from ._plumbline import inputs, problems, reference

__all__ = ["Error", "CheckFailure", "attributes", "canonical", "check", "gradcheck", "inputs", "operators",
           "problems", "reference", "signature"]


class CheckFailure(AssertionError):
    """A check found a wrong result. `.problem`, `.values`, `.seed`, `.verdict` say which case; `.repro`
    is the call that runs it again; str() is plumbline's failure message."""

    def __init__(self, message, failure, repro):
        super().__init__(message)
        self.problem = failure["problem"]
        self.values = failure["values"]
        self.seed = failure["seed"]
        self.verdict = failure["verdict"]
        self.repro = repro


def check(op, fn, cases=100, seed=1, values=None, problem=None, name=None):
    """Checks fn(problem, inputs) -> outputs against the reference of `op` on `cases` random problems
    (or the one `problem` line). `problem` is the problem line (plumbline.attributes() parses it),
    `inputs` a dict of float32 arrays by name; fn returns the outputs as an array (one output), a list in
    order, or a dict by name. `values`: integers, uniform, normal or edge (default: each in turn).
    Returns a dict (passed, cases, worst_ratio); raises CheckFailure with the shrunk problem and a repro."""
    r = _check(op, fn, cases=cases, seed=seed, values=values, problem=problem)
    if r["passed"]:
        return r
    f = r["failure"]
    fn_name = name or getattr(fn, "__name__", "fn")
    repro = 'plumbline.check("%s", %s, problem="%s", values="%s", seed=%d)' % (op, fn_name, f["problem"], f["values"], f["seed"])
    message = "FAIL %s [%s]: %s\n  problem: %s  (values %s, seed %d)\n  repro:   %s" % (
        op, f["verdict"], f["message"], f["problem"], f["values"], f["seed"], repro)
    if r["original"] != f["problem"]:
        message += "\n  (shrunk from %s)" % r["original"]
    raise CheckFailure(message, f, repro)


def gradcheck(problem, backward=None, seed=1):
    """Checks a backward operator's problem (e.g. "softmax_bwd:m=3,n=5") against finite differences of
    the reference forward: the reference backward, or backward(problem, inputs) -> outputs (float64).
    Returns a dict (passed, mode, checks, worst_ratio, summary); raises CheckFailure when it fails."""
    r = _gradcheck(problem, backward, seed)
    if not r["passed"]:
        failure = {"problem": canonical(problem), "values": "gradcheck", "seed": seed, "verdict": "gradient"}
        repro = 'plumbline.gradcheck("%s", %s, seed=%d)' % (canonical(problem), "backward" if backward else "None", seed)
        raise CheckFailure("FAIL %s: %s\n  repro:   %s" % (canonical(problem), r["summary"], repro), failure, repro)
    return r
