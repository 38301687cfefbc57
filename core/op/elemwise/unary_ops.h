// The unary math operators, one row each (Note [Unary math rows]).
#pragma once

// Note [Unary math rows]
// ROW(enumerator, op name, fluent, value, gradient, doc) for every unary op whose value
// is one floating-point formula. The row is all there is to such an op:
//  - value: an expression of `x` in the compute type `X` (float for float32,
//    float16, bfloat16 and the integer dtypes, whose result is truncated back
//    to the dtype as MXNet's math:: helpers do; double for float64). It is
//    compiled for the CPU kernels (elemwise_cpu.cc) and the GPU kernels
//    (elemwise_math.cuh) alike, so use functions CUDA's device library has;
//  - gradient: the input's gradient as an expression of the GradBuilder `b`,
//    the output gradient `g`, the input `x` and the output `y` (NodeEntry;
//    core/graph/grad_builder.h), built from registered ops;
//  - the op's name (also its word in fused programs) and its doc string;
//  - fluent: whether it is also an NDArray/Symbol method (MXNet's x.exp()).
// From the rows come the UnaryKind enumerators (elemwise_cpu.h), the op
// declarations (unary.cc), the CPU functors, the GPU switch, the gradient
// rules and the fused-program names. A new op: one row, plus its harness case
// in tests/python/op_cases/elemwise.py. Ops with integer-exact rules (abs,
// negative, square, relu, sign, floor, ceil, round, reciprocal) are written
// out in elemwise_cpu.cc and elemwise_math.cuh instead.
#define WEFT_UNARY_MATH_OPS(ROW) \
  ROW(kExp, "exp", true, std::exp(x),\
    b.Mul(g, y),\
    "Returns element-wise exponential value of the input.\n\n"\
      "Example::\n\n   exp([0, 1, 2]) = [1., 2.71828175, 7.38905621]\n\n"\
      "Integer inputs are computed in float32 and truncated back to the input dtype.") \
  ROW(kLog, "log", true, std::log(x),\
    b.Div(g, x),\
    "Returns element-wise Natural logarithmic value of the input.\n\n"\
      "The natural logarithm is logarithm in base *e*, so that ``log(exp(x)) = x``.") \
  ROW(kLog1p, "log1p", true, std::log1p(x),\
    b.Div(g, b.Scalar("_plus_scalar", x, 1)),\
    "Returns element-wise ``log(1 + x)`` value of the input.\n\n"\
      "This function is more accurate than ``log(1 + x)`` for small ``x``.") \
  ROW(kExpm1, "expm1", true, std::expm1(x),\
    b.Mul(g, b.Scalar("_plus_scalar", y, 1)),\
    "Returns ``exp(x) - 1`` computed element-wise on the input.\n\n"\
      "This function provides greater precision than ``exp(x) - 1`` for small values of ``x``.") \
  ROW(kSqrt, "sqrt", true, std::sqrt(x),\
    b.Div(g, b.Scalar("_mul_scalar", y, 2)),\
    "Returns element-wise square-root value of the input.\n\n"\
      ".. math::\n   \\textrm{sqrt}(x) = \\sqrt{x}\n\nExample::\n\n   sqrt([4, 9, 16]) = [2, 3, 4]") \
  ROW(kRsqrt, "rsqrt", true, X(1) / std::sqrt(x),\
    b.Scalar("_mul_scalar", b.Div(b.Mul(g, y), x), -0.5),\
    "Returns element-wise inverse square-root value of the input.\n\n"\
      ".. math::\n   rsqrt(x) = 1/\\sqrt{x}\n\nExample::\n\n   rsqrt([4,9,16]) = [0.5, 0.33333334, 0.25]") \
  ROW(kSin, "sin", true, std::sin(x),\
    b.Mul(g, b("cos", {x})),\
    "Computes the element-wise sine of the input array.\n\n"\
      "The input should be in radians (:math:`2\\pi` rad equals 360 degrees).") \
  ROW(kCos, "cos", true, std::cos(x),\
    b.Mul(g, b.Neg(b("sin", {x}))),\
    "Computes the element-wise cosine of the input array.\n\n"\
      "The input should be in radians (:math:`2\\pi` rad equals 360 degrees).") \
  ROW(kTan, "tan", true, std::tan(x),\
    b.Mul(g, b.Scalar("_plus_scalar", b("square", {y}), 1)),\
    "Computes the element-wise tangent of the input array.\n\n"\
      "The input should be in radians (:math:`2\\pi` rad equals 360 degrees).") \
  ROW(kTanh, "tanh", true, std::tanh(x),\
    b.Mul(g, b.Scalar("_rminus_scalar", b("square", {y}), 1)),\
    "Returns the hyperbolic tangent of the input array, computed element-wise.\n\n"\
      ".. math::\n   tanh(x) = sinh(x) / cosh(x)") \
  ROW(kSigmoid, "sigmoid", true, X(1) / (X(1) + std::exp(-x)),\
    b.Mul(g, b.Mul(y, b.Scalar("_rminus_scalar", y, 1))),\
    "Computes sigmoid of x element-wise.\n\n.. math::\n   y = 1 / (1 + exp(-x))") \
  ROW(kCbrt, "cbrt", true, std::cbrt(x),\
    b.Div(g, b.Scalar("_mul_scalar", b("square", {y}), 3)),\
    "Returns element-wise cube-root value of the input.\n\n"\
      ".. math::\n   cbrt(x) = \\sqrt[3]{x}\n\nExample::\n\n   cbrt([1, 8, -125]) = [1, 2, -5]")
