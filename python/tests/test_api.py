"""The Python API end to end (docs/python.md): a correct NumPy softmax passes, wrong ones fail with the
shrunk problem and a repro that fails again, the references and draws agree with the CLI's."""
import unittest

import numpy as np

import plumbline


def softmax(problem, inputs):
    x = inputs["x"].astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        m = x.max(axis=-1, keepdims=True)
        e = np.exp(x - m)
        return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def softmax_without_max(problem, inputs):
    # exp overflows in float32 for inputs above 88: the shift by the row's max is missing.
    x = inputs["x"]
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x)
        return e / e.sum(axis=-1, keepdims=True)


def softmax_over_columns(problem, inputs):
    x = inputs["x"].astype(np.float64)
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return (e / e.sum(axis=0, keepdims=True)).astype(np.float32)


class Check(unittest.TestCase):
    def test_a_correct_numpy_softmax_passes(self):
        r = plumbline.check("softmax", softmax, cases=60, values="normal")
        self.assertTrue(r["passed"])
        self.assertEqual(r["cases"], 60)
        self.assertLess(r["worst_ratio"], 1)
        # every value distribution, the edge values (NaN, +-Inf, FLT_MAX) included
        self.assertTrue(plumbline.check("softmax", softmax, cases=40)["passed"])

    def test_a_softmax_without_max_subtraction_fails_with_a_repro(self):
        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("softmax", softmax_without_max, cases=100)
        e = caught.exception
        text = str(e)
        self.assertIn("FAIL softmax [", text)
        self.assertIn("problem: " + e.problem, text)
        self.assertIn('repro:   plumbline.check("softmax", softmax_without_max, problem="%s"' % e.problem, text)
        attrs = plumbline.attributes(e.problem)
        self.assertLessEqual(attrs["m"] * attrs["n"], 8, "shrunk to a small problem: " + e.problem)
        self.assertIn(
            "cli:     plumbline check softmax --problem '%s' --values %s --seed %d" % (e.problem, e.values, e.seed),
            text,
        )
        # The repro fails again, the same way.
        with self.assertRaises(plumbline.CheckFailure) as again:
            plumbline.check("softmax", softmax_without_max, problem=e.problem, values=e.values, seed=e.seed)
        self.assertEqual(again.exception.verdict, e.verdict)

    def test_a_softmax_over_the_wrong_axis_is_wrong(self):
        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("softmax", softmax_over_columns, cases=30, values="uniform")
        self.assertEqual(caught.exception.verdict, "wrong")
        self.assertIn("output 'y' element", str(caught.exception))

    def test_outputs_of_the_wrong_shape_are_named(self):
        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("softmax", lambda p, i: np.zeros((1, 1), np.float32), problem="softmax:m=3,n=4")
        self.assertEqual(caught.exception.verdict, "bad-output")
        self.assertIn("output 'y' has shape [1,1], expected [3,4]", str(caught.exception))

    def test_bad_input_is_an_error_naming_it(self):
        with self.assertRaises(plumbline.Error) as caught:
            plumbline.check("no_such_op", softmax, cases=1)
        self.assertIn("no_such_op", str(caught.exception))
        with self.assertRaises(plumbline.Error):
            plumbline.reference("softmax:m=2,n=3", {"x": np.zeros((3, 2))})


class Formats(unittest.TestCase):
    def test_dtypes_chooses_the_storage_formats_drawn(self):
        seen = set()

        def record(problem, inputs):
            seen.add(problem.get("dtype", "f32"))
            return softmax(problem, inputs)

        self.assertTrue(plumbline.check("softmax", record, cases=24, values="normal", dtypes=["f32"])["passed"])
        self.assertEqual(seen, {"f32"})
        seen.clear()
        plumbline.check("softmax", record, cases=24, values="normal", dtypes=["f32", "bf16"])
        self.assertEqual(seen, {"f32", "bf16"})
        with self.assertRaises(plumbline.Error) as caught:
            plumbline.check("softmax", softmax, cases=1, dtypes=["f64"])
        self.assertIn("storage format 'f64': the formats are f32, f16 and bf16", str(caught.exception))

    def test_an_unknown_operator_is_called_unknown(self):
        with self.assertRaises(plumbline.Error) as caught:
            plumbline.check("softmx", softmax, cases=1)
        self.assertIn("unknown operator 'softmx'", str(caught.exception))

    def test_an_exception_of_the_function_fails_its_case_with_the_problem_and_a_repro(self):
        def raises_on_wide_rows(problem, inputs):
            if problem["n"] > 4:
                raise ValueError("rows wider than 4 are not supported")
            return softmax(problem, inputs)

        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("softmax", raises_on_wide_rows, cases=40, dtypes=["f32"])
        e = caught.exception
        self.assertEqual(e.verdict, "bad-output")
        self.assertIn("the function raised ValueError: rows wider than 4 are not supported", str(e))
        self.assertEqual(
            plumbline.attributes(e.problem)["n"], 5, "shrunk to the narrowest row that raises: " + e.problem
        )
        self.assertIn('repro:   plumbline.check("softmax", raises_on_wide_rows, problem="%s"' % e.problem, str(e))

    def test_a_float64_result_or_none_fails_its_case_naming_the_output(self):
        def in_float64(problem, inputs):
            return softmax(problem, inputs).astype(np.float64)

        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("softmax", in_float64, cases=4, dtypes=["f16"])
        self.assertIn(
            "output 'y' is float64: return float32 or float16, holding the values as the f16 problem stores them",
            str(caught.exception),
        )
        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("softmax", lambda p, i: None, cases=4, dtypes=["f32"], name="nothing")
        self.assertIn("fn returned None: return output 'y' (shape [", str(caught.exception))
        self.assertIn('plumbline.check("softmax", nothing, problem=', str(caught.exception))

    def test_a_tensor_of_torch_is_taken_as_its_values(self):
        class Tensor:  # what the check reads of a torch.Tensor: detach, cpu, dtype, float, numpy
            def __init__(self, a, dtype="torch.float32"):
                self.a, self.dtype = a, dtype

            def detach(self):
                return self

            def cpu(self):
                return self

            def float(self):
                return Tensor(self.a.astype(np.float32))

            def numpy(self):
                return self.a

        Tensor.__module__ = "torch"
        self.assertTrue(
            plumbline.check("softmax", lambda p, i: Tensor(softmax(p, i)), cases=8, dtypes=["f32"])["passed"]
        )
        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check(
                "softmax",
                lambda p, i: Tensor(softmax(p, i).astype(np.float64), "torch.float64"),
                cases=4,
                dtypes=["f32"],
            )
        self.assertIn("output 'y' is float64: return float32, holding", str(caught.exception))


class Data(unittest.TestCase):
    def test_problems_and_inputs_are_reproducible(self):
        self.assertEqual(plumbline.problems("matmul", 5, seed=3), plumbline.problems("matmul", 5, seed=3))
        self.assertNotEqual(plumbline.problems("matmul", 5, seed=3), plumbline.problems("matmul", 5, seed=4))
        a = plumbline.inputs("matmul:m=3,k=4,n=5", "integers", 7)
        b = plumbline.inputs("matmul:m=3,k=4,n=5", "integers", 7)
        self.assertEqual(a["a"].dtype, np.float32)
        self.assertEqual(a["a"].shape, (3, 4))
        np.testing.assert_array_equal(a["b"], b["b"])

    def test_fn_gets_the_problem_and_a_repro_names_the_device(self):
        seen = []

        def scaled(problem, inputs):
            seen.append(problem)
            return inputs["x"]  # not a softmax

        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("softmax", scaled, problem={"m": 3, "n": 4}, values="uniform", device="cpu")
        self.assertEqual(seen[0].op, "softmax")
        self.assertEqual((seen[0]["m"], seen[0]["n"]), (3, 4))
        self.assertEqual(str(seen[0]), "softmax:m=3,n=4")
        self.assertIn("FAIL softmax on cpu [wrong]", str(caught.exception))
        self.assertIn('device="cpu")', caught.exception.repro)

    def test_a_case_draws_the_inputs_the_cli_draws(self):
        got = {}

        def keep(problem, inputs):
            got.update(inputs)
            return softmax(problem, inputs)

        plumbline.check("softmax", keep, problem="softmax:m=4,n=9", values="edge", seed=11)
        np.testing.assert_array_equal(got["x"], plumbline.inputs("softmax:m=4,n=9", "edge", 11)["x"])

    def test_the_reference_is_the_mathematics(self):
        x = plumbline.inputs("matmul:m=3,k=4,n=5,tb=1", "normal", 2)
        y = plumbline.reference("matmul:m=3,k=4,n=5,tb=1", x)["y"]
        self.assertEqual(y.dtype, np.float64)
        np.testing.assert_allclose(y, x["a"].astype(np.float64) @ x["b"].astype(np.float64).T, rtol=1e-12)
        same = plumbline.reference("matmul", {"m": 3, "k": 4, "n": 5, "tb": 1}, x)["y"]
        np.testing.assert_array_equal(y, same)
        ins, outs = plumbline.signature("conv2d:n=2,c=3,h=5,w=5,k=4,r=3,s=3")
        self.assertEqual(list(ins), ["x", "w"])
        self.assertEqual(outs["y"], (2, 4, 3, 3))


class Gradcheck(unittest.TestCase):
    def test_the_reference_backward_passes_and_a_wrong_one_fails(self):
        self.assertTrue(plumbline.gradcheck("softmax_bwd:m=3,n=5")["passed"])

        def no_dot(problem, inputs):  # d_x = y * d_y, the "- y * sum(y * d_y)" term forgotten
            return [inputs["y"] * inputs["d_y"]]

        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.gradcheck("softmax_bwd:m=3,n=5", no_dot)
        self.assertIn('repro:   plumbline.gradcheck("softmax_bwd:m=3,n=5", no_dot, seed=1)', str(caught.exception))


class Torch(unittest.TestCase):  # Debian's python3-torch: scripts/setup.sh installs it
    def test_torch_conv2d_on_the_cpu_passes(self):
        import torch

        torch.backends.mkldnn.enabled = True

        def conv(problem, inputs):
            a = problem
            y = torch.nn.functional.conv2d(
                torch.from_numpy(inputs["x"]),
                torch.from_numpy(inputs["w"]),
                torch.from_numpy(inputs["bias"]) if a["bias"] else None,
                stride=(a["sh"], a["sw"]),
                padding=(a["ph"], a["pw"]),
                dilation=(a["dh"], a["dw"]),
                groups=a["g"],
            )
            return y.numpy()

        self.assertTrue(plumbline.check("conv2d", conv, cases=40, values="normal")["passed"])

    def test_torch_true_hands_the_inputs_as_tensors(self):
        import torch

        def softmax_torch(problem, inputs):
            return torch.softmax(inputs["x"].double(), dim=-1).float()

        self.assertTrue(plumbline.check("softmax", softmax_torch, cases=20, dtypes=["f32"], torch=True)["passed"])


def to_tf32(x):
    """float32 values rounded to 10 explicit mantissa bits, to nearest even (finite values)."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0xFFF + ((u >> 13) & 1)) & 0xFFFFE000
    return u.astype(np.uint32).view(np.float32)


class NumericModes(unittest.TestCase):
    def test_a_tf32_matmul_passes_tf32_and_fails_the_exact_contract(self):
        def matmul_tf32(problem, inputs):
            a, b = to_tf32(inputs["a"]), to_tf32(inputs["b"])
            if problem["ta"]:
                a = np.swapaxes(a, -1, -2)
            if problem["tb"]:
                b = np.swapaxes(b, -1, -2)
            return np.matmul(a, b).astype(np.float32)

        r = plumbline.check("matmul", matmul_tf32, cases=40, values="normal", dtypes=["f32"], math="tf32")
        self.assertTrue(r["passed"])
        with self.assertRaises(plumbline.CheckFailure) as caught:
            plumbline.check("matmul", matmul_tf32, cases=40, values="normal", dtypes=["f32"])
        self.assertEqual(caught.exception.verdict, "wrong")
        with self.assertRaises(plumbline.Error) as caught:
            plumbline.check("softmax", softmax, math="tf32")
        self.assertIn("numeric mode tf32 covers the operators", str(caught.exception))


class RoundTo(unittest.TestCase):
    def test_round_to_rounds_as_a_kernels_store_and_a_bf16_softmax_passes(self):
        x = np.array([1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 70000.0, -0.0], dtype=np.float32)
        # bf16 keeps 8 significant bits: ties go to even; f16 overflows past 65504.
        self.assertEqual(list(plumbline.round_to(x, "bf16")), [1.0, 1.0 + 2.0**-6, 70144.0, -0.0])
        self.assertEqual(plumbline.round_to(x, "f16")[2], np.inf)
        self.assertEqual(list(plumbline.round_to(x, "f32")), list(x))

        def softmax_rounded(problem, inputs):
            return plumbline.round_to(softmax(problem, inputs), problem["dtype"])

        self.assertTrue(plumbline.check("softmax", softmax_rounded, cases=24, dtypes=["bf16", "f16"])["passed"])


class DocsPythonMd(unittest.TestCase):
    """docs/python.md runs as written: its Python blocks in order, in one namespace, and where a block is
    followed by "prints" and a plain block, that is what it prints."""

    def test_its_examples_run_and_print_what_it_shows(self):
        import contextlib, io, os, re

        with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")) as f:
            doc = f.read()
        blocks = re.findall(r"```python\n(.*?)```\n(?:\nprints\n\n```\n(.*?)```\n)?", doc, re.S)
        self.assertGreaterEqual(len(blocks), 2)
        namespace = {}
        for code, shown in blocks:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, "docs/python.md", "exec"), namespace)
            if shown:
                self.assertEqual(out.getvalue(), shown)


if __name__ == "__main__":
    unittest.main()
