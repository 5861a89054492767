"""plumbline's Python API: check any implementation of a neural-network operator (NumPy, PyTorch,
Triton, CuPy, a compiled kernel: anything Python can call) against plumbline's double-precision
references, with the same problems, inputs, error bounds, shrinking and repro lines as
`plumbline check`. See docs/python.md.

    import numpy as np, plumbline
    def softmax(problem, inputs):
        x = inputs["x"].astype(np.float64)
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    plumbline.check("softmax", softmax, cases=50, dtypes=["f32"])   # raises plumbline.CheckFailure with a repro

Without dtypes=, the problems come in every storage format the operator takes (f32, f16 and bf16 in
turn, as `plumbline check` draws them): inputs then hold values of that format, and a result is
judged as the format stores it.
"""
from ._plumbline import Error, attributes, canonical, operators, signature
from ._plumbline import check as _check
from ._plumbline import gradcheck as _gradcheck
from ._plumbline import inputs, problems, round_to

from ._plumbline import reference as _reference

import numpy as np

__all__ = [
    "Error",
    "CheckFailure",
    "Problem",
    "attributes",
    "canonical",
    "check",
    "gradcheck",
    "inputs",
    "operators",
    "problems",
    "reference",
    "round_to",
    "signature",
]


class Problem(dict):
    """A problem: its attributes by name (defaults filled in), with `.op` and `.line`; str() is its line."""

    def __init__(self, line):
        self.line = canonical(str(line))
        super().__init__(attributes(self.line))
        self.op = self.line.split(":", 1)[0]

    def __str__(self):
        return self.line

    def __repr__(self):
        return "Problem(%r)" % self.line


def _line(op, problem):
    """A problem line from an operator and a line or a dict of attributes."""
    if isinstance(problem, Problem) or (isinstance(problem, str) and ":" in problem):
        line = str(problem)
        if line.split(":", 1)[0] != op:
            raise Error("problem '%s' is not a problem of %s" % (line, op))
        return line
    if isinstance(problem, dict):
        return canonical(op + ":" + ",".join("%s=%s" % kv for kv in problem.items()))
    raise Error("a problem is a problem line or a dict of attributes, not %r" % (problem,))


def reference(op_or_problem, problem_or_inputs, inputs=None):
    """The reference outputs (float64 arrays by name): reference(op, problem, inputs) with the problem as
    a line or a dict of attributes, or reference(problem_line, inputs)."""
    if inputs is None:
        return _reference(str(op_or_problem), problem_or_inputs)
    return _reference(_line(op_or_problem, problem_or_inputs), inputs)


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


def _is_torch_tensor(x):
    return type(x).__module__.split(".")[0] == "torch" and hasattr(x, "detach") and hasattr(x, "numpy")


def _result(problem, result):
    """fn's result as NumPy arrays (torch tensors moved to the host), each in a format that holds the
    problem's storage format exactly: float32, or the format itself (float16; bfloat16 from torch)."""
    outputs = list(signature(problem.line)[1].items())  # (name, shape) in order
    if result is None:
        raise TypeError(
            "fn returned None: return %s" % ", ".join("output '%s' (shape %s)" % (n, list(s)) for n, s in outputs)
        )
    fmt = problem.get("dtype", "f32")
    own = {"f16": "float16", "bf16": "bfloat16"}.get(fmt)

    def one(name, x):
        kind = None
        if _is_torch_tensor(x):
            t = x.detach().cpu()
            kind = str(t.dtype).replace("torch.", "")
            x = (t.float() if kind in ("float16", "bfloat16") else t).numpy()
        else:
            x = np.asarray(x)
            kind = str(x.dtype)
        if x.dtype.kind == "f" and kind not in ("float32", own):
            raise TypeError(
                "output '%s' is %s: return float32%s, holding the values as the %s problem stores them"
                % (name, kind, " or " + own if own else "", fmt)
            )
        return x

    if isinstance(result, dict):
        return {k: one(k, v) for k, v in result.items()}
    if isinstance(result, (list, tuple)):
        return [one(outputs[i][0] if i < len(outputs) else str(i), v) for i, v in enumerate(result)]
    return one(outputs[0][0], result)


def _torch_inputs(inputs, device):
    import torch

    return {k: torch.from_numpy(v).to(device) if device else torch.from_numpy(v) for k, v in inputs.items()}


def check(
    op,
    fn,
    cases=100,
    seed=1,
    values=None,
    problem=None,
    device=None,
    name=None,
    dtypes=None,
    torch=False,
    nonfinite="limits",
    math="exact",
):
    """Checks fn(problem, inputs) -> outputs against the reference of `op` on `cases` random problems
    (or the one `problem`, a line or a dict of attributes). fn gets a Problem (its attributes by name,
    `.line`) and a dict of float32 arrays by name, and returns the outputs as an array (one output), a
    list in order, or a dict by name: NumPy arrays or PyTorch tensors, in float32 or the problem's own
    format (a float64 result fails its case). `values`: integers, uniform, normal, edge or sparse
    (default: the first four in turn). `dtypes`: the storage formats to draw, e.g. ["f32"] (default: f32,
    f16 and bf16 in turn, four cases each). `torch=True`: the inputs come as torch tensors, on `device`
    where given (e.g. "cuda:0"); otherwise `device` only names where fn computes, for the messages.
    `name`: fn's name in the repro (default: its __name__). An exception that fn raises fails its case
    (shrunk, with the repro). `nonfinite`: "limits" (the reference's rules at the edges) or "ieee" (also
    what IEEE arithmetic gives for the operator's formula there, as PyTorch computes it; docs/verification.md).
    `math`: the numeric mode fn computes in, "exact" (the default contract), "tf32", "bf16x3", "winograd(2,3)"
    or "winograd(4,3)", judged under that mode's derived bound (docs/verification.md, "Numeric modes").
    Returns a dict (passed, cases, worst_ratio, ieee_accepted); raises CheckFailure with the shrunk
    problem and a repro."""
    line = _line(op, problem) if problem is not None else None

    def call(p, i):
        q = Problem(p)
        return _result(q, fn(q, _torch_inputs(i, device) if torch else i))

    r = _check(
        op,
        call,
        cases=cases,
        seed=seed,
        values=values,
        problem=line,
        dtypes=list(dtypes or []),
        nonfinite=nonfinite,
        math=math,
    )
    r["device"] = device
    if r["passed"]:
        return r
    f = r["failure"]
    fn_name = name or getattr(fn, "__name__", "fn")
    repro = 'plumbline.check("%s", %s, problem="%s", values="%s", seed=%d%s%s%s%s)' % (
        op,
        fn_name,
        f["problem"],
        f["values"],
        f["seed"],
        ', device="%s"' % device if device else "",
        ", torch=True" if torch else "",
        ', nonfinite="%s"' % nonfinite if nonfinite != "limits" else "",
        ', math="%s"' % math if math != "exact" else "",
    )
    message = "FAIL %s%s [%s]: %s\n  problem: %s  (values %s, seed %d)\n  repro:   %s" % (
        op,
        " on " + device if device else "",
        f["verdict"],
        f["message"],
        f["problem"],
        f["values"],
        f["seed"],
        repro,
    )
    # The same problem and inputs through the command line, for an OpenCL kernel of the same operator.
    message += "\n  cli:     plumbline check %s --problem '%s' --values %s --seed %d%s%s" % (
        op,
        f["problem"],
        f["values"],
        f["seed"],
        " --nonfinite " + nonfinite if nonfinite != "limits" else "",
        " --math '%s'" % math if math != "exact" else "",
    )
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
        repro = 'plumbline.gradcheck("%s", %s, seed=%d)' % (
            canonical(problem),
            getattr(backward, "__name__", "backward") if backward else "None",
            seed,
        )
        raise CheckFailure("FAIL %s: %s\n  repro:   %s" % (canonical(problem), r["summary"], repro), failure, repro)
    return r
