// Activations shared by elementwise.cl and gemm.cl (inlined by the runtime where included).
// Codes: 0 none, 1 relu, 2 gelu_tanh, 3 gelu_erf, 4 silu, 5 sigmoid, 6 tanh.

// sigmoid without overflow: exp of a non-positive argument only, so exp never overflows and
// sigmoid of a large negative number stays a tiny positive number instead of 1/Inf.
float sigmoid_stable(float x) {
  const float e = exp(-fabs(x));
  return x >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
}

// tanh with its exact limits: OpenCL requires tanh(+-Inf) = +-1, but PoCL 3.1 returns 0.99999994 there
// (found by plumbline's edge values). gelu_tanh reaches it too, when x^3 overflows.
float tanh_limits(float z) { return isinf(z) ? copysign(1.0f, z) : tanh(z); }

// 1 / cosh(z)^2 (tanh's derivative) without 1 - tanh(z)^2, which cancels and is 1.2e-7 instead of ~0
// wherever tanh is an ulp below 1 (PoCL's is at large arguments): 0 where cosh^2 overflows.
float sech2(float z) {
  const float c = cosh(z);
  return 1.0f / (c * c);
}

float act_value(int kind, float x) {
  if (isnan(x)) return x;
  if (isinf(x) && kind >= 2 && kind <= 4) return x > 0.0f ? x : -0.0f;  // the limits of gelu, silu
  switch (kind) {
    case 1: return x > 0.0f ? x : 0.0f;
    case 2: return x * sigmoid_stable(2.0f * 0.7978845608f * (x + 0.044715f * x * x * x));  // 0.5 x (1 + tanh z)
    case 3: return 0.5f * x * (1.0f + erf(x * 0.70710678118f));
    case 4: return x * sigmoid_stable(x);
    case 5: return sigmoid_stable(x);
    case 6: return tanh_limits(x);
    default: return x;
  }
}

float act_slope(int kind, float x) {
  if (kind == 0) return 1.0f;  // the identity's derivative, NaN inputs included (as the reference)
  if (isnan(x)) return x;
  if (isinf(x) && kind >= 2 && kind <= 4) return x > 0.0f ? 1.0f : 0.0f;
  switch (kind) {
    case 1: return x > 0.0f ? 1.0f : 0.0f;  // relu'(0) = 0
    case 2: {
      const float k = 0.7978845608f, c = 0.044715f, inner = k * (x + c * x * x * x);
      // sigmoid(2 inner) and sech^2(inner) from one exp and one division, where cosh and two divisions
      // cost G's pass of the 16-bit gelu backwards 0.013 ms over relu's (now 0.007; the pass itself is
      // not compute-bound): with e = exp(-2 |inner|) <= 1 and r = 1 / (1 + e), sigmoid(2 inner) is r
      // (inner >= 0) or e r, and sech^2(inner) = 4 e r^2.
      // Where sech^2 is 0 the second term is 0, but for |x| > 1.8e19 x^2 overflows and 0 * Inf would
      // make it NaN (found by the edge values through gemm_bias_act_bwd).
      const float e = exp(-2.0f * fabs(inner)), r = 1.0f / (1.0f + e);
      const float s2 = 4.0f * e * r * r;
      return (inner >= 0.0f ? r : e * r) + (s2 == 0.0f ? 0.0f : 0.5f * x * s2 * k * (1.0f + 3.0f * c * x * x));
    }
    case 3: return 0.5f * (1.0f + erf(x * 0.70710678118f)) + x * 0.39894228040f * exp(-0.5f * x * x);
    case 4: return sigmoid_stable(x) * (1.0f + x * sigmoid_stable(-x));
    case 5: return sigmoid_stable(x) * sigmoid_stable(-x);  // s (1 - s) without the cancellation
    case 6: return sech2(x);
    default: return 1.0f;
  }
}


// The activation and its slope in the GEMM epilogues (xgemm_bias_act.cl, xgemm_backward.cl): inlined,
// or with ACT_CALL=1 (a tuned define) called. Inlined there, once for each of a work-item's 64-128
// accumulators, their code made NVIDIA's compiler schedule the GEMM's main loop worse: gemm_bias_act
// 4096x1024x4096 with gelu_tanh took 1.26 ms inlined, 0.98 ms called (H100, 2026-11-24). On PoCL
// a call is the slower one (512^3 with gelu_tanh: 8.2-9.8 ms inlined, 10.8-13.6 called).
#if defined(ACT_CALL) && ACT_CALL
__attribute__((noinline)) float act_value_call(int kind, float x) { return act_value(kind, x); }
__attribute__((noinline)) float act_slope_call(int kind, float x) { return act_slope(kind, x); }
#define EPILOGUE_ACT_VALUE act_value_call
#define EPILOGUE_ACT_SLOPE act_slope_call
#else
#define EPILOGUE_ACT_VALUE act_value
#define EPILOGUE_ACT_SLOPE act_slope
#endif

// The statement (the variadic argument) once for each activation code, with ACT_KIND that code as a
// constant (the code's own copy: act_value's and act_slope's switches fold away in it, and an epilogue's
// columns interleave); codes other than 0-6 take a copy with ACT_KIND the variable. With the code a
// variable, xgemm_mma_grad_pairs's epilogue took each of a work-item's 8 columns through the switch's
// branches, one column after the other: 0.090 ms of the step's 0.179 (its epilogue run twice: 0.2685;
// H100, 2026-11-28).
#define ACT_CONSTANT(act, ...)                                      \
  switch (act) {                                                    \
    case 0: { const int ACT_KIND = 0; __VA_ARGS__ } break;          \
    case 1: { const int ACT_KIND = 1; __VA_ARGS__ } break;          \
    case 2: { const int ACT_KIND = 2; __VA_ARGS__ } break;          \
    case 3: { const int ACT_KIND = 3; __VA_ARGS__ } break;          \
    case 4: { const int ACT_KIND = 4; __VA_ARGS__ } break;          \
    case 5: { const int ACT_KIND = 5; __VA_ARGS__ } break;          \
    case 6: { const int ACT_KIND = 6; __VA_ARGS__ } break;          \
    default: { const int ACT_KIND = (act); __VA_ARGS__ } break;     \
  }
