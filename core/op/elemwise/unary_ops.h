// The unary math operators, one row each (Note [Unary math rows]).
#pragma once
#include "core/op/elemwise/special_math.h"

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
      ".. math::\n   cbrt(x) = \\sqrt[3]{x}\n\nExample::\n\n   cbrt([1, 8, -125]) = [1, 2, -5]") \
  WEFT_UNARY_MATH_MORE_OPS(ROW)

// Issue 17's unary math rows (one block, kept apart so merges stay easy).
// sqrt(1 - x^2) and friends are spelled with registered ops; erfinv and the
// gamma gradients use core/op/elemwise/special_math.h (Note [erfinv], Note
// [digamma]); gamma and gammaln take their gradients from _backward_gamma /
// _backward_gammaln (elemwise/special_backward.cc), as MXNet does.
#define WEFT_UNARY_MATH_MORE_OPS(ROW) \
  ROW(kArcsin, "arcsin", true, std::asin(x),\
    b.Div(g, b("sqrt", {b.Scalar("_rminus_scalar", b("square", {x}), 1)})),\
    "Returns element-wise inverse sine of the input array.\n\n"\
      "The input should be in the range `[-1, 1]`; the output is in the closed interval "\
      ":math:`[-\\pi/2, \\pi/2]`.\n\nExample::\n\n   arcsin([-1, -.707, 0, .707, 1]) = [-pi/2, -pi/4, 0, pi/4, pi/2]") \
  ROW(kArccos, "arccos", true, std::acos(x),\
    b.Neg(b.Div(g, b("sqrt", {b.Scalar("_rminus_scalar", b("square", {x}), 1)}))),\
    "Returns element-wise inverse cosine of the input array.\n\n"\
      "The input should be in range `[-1, 1]`; the output is in the closed interval :math:`[0, \\pi]`.\n\n"\
      "Example::\n\n   arccos([-1, -.707, 0, .707, 1]) = [pi, 3pi/4, pi/2, pi/4, 0]") \
  ROW(kArctan, "arctan", true, std::atan(x),\
    b.Div(g, b.Scalar("_plus_scalar", b("square", {x}), 1)),\
    "Returns element-wise inverse tangent of the input array.\n\n"\
      "The output is in the closed interval :math:`[-\\pi/2, \\pi/2]`.\n\n"\
      "Example::\n\n   arctan([-1, 0, 1]) = [-pi/4, 0, pi/4]") \
  ROW(kSinh, "sinh", true, std::sinh(x),\
    b.Mul(g, b("cosh", {x})),\
    "Returns the hyperbolic sine of the input array, computed element-wise.\n\n"\
      ".. math::\n   sinh(x) = 0.5\\times(exp(x) - exp(-x))") \
  ROW(kCosh, "cosh", true, std::cosh(x),\
    b.Mul(g, b("sinh", {x})),\
    "Returns the hyperbolic cosine  of the input array, computed element-wise.\n\n"\
      ".. math::\n   cosh(x) = 0.5\\times(exp(x) + exp(-x))") \
  ROW(kArcsinh, "arcsinh", true, std::asinh(x),\
    b.Div(g, b("sqrt", {b.Scalar("_plus_scalar", b("square", {x}), 1)})),\
    "Returns the element-wise inverse hyperbolic sine of the input array, computed element-wise.") \
  ROW(kArccosh, "arccosh", true, std::acosh(x),\
    b.Div(g, b("sqrt", {b.Scalar("_minus_scalar", b("square", {x}), 1)})),\
    "Returns the element-wise inverse hyperbolic cosine of the input array, computed element-wise.") \
  ROW(kArctanh, "arctanh", true, std::atanh(x),\
    b.Div(g, b.Scalar("_rminus_scalar", b("square", {x}), 1)),\
    "Returns the element-wise inverse hyperbolic tangent of the input array, computed element-wise.") \
  ROW(kErf, "erf", false, std::erf(x),\
    b.Scalar("_mul_scalar", b.Mul(g, b("exp", {b.Neg(b("square", {x}))})), 1.1283791670955126),\
    "Returns element-wise gauss error function of the input.\n\n"\
      "Example::\n\n   erf([0, -1., 10.]) = [0., -0.8427, 1.]") \
  ROW(kErfinv, "erfinv", false, special::Erfinv(x),\
    b.Scalar("_mul_scalar", b.Mul(g, b("exp", {b("square", {y})})), 0.88622692545275801),\
    "Returns element-wise inverse gauss error function of the input.\n\n"\
      "Example::\n\n   erfinv([0, 0.5, -1.]) = [0., 0.4769, -inf]") \
  ROW(kGamma, "gamma", false, std::tgamma(x),\
    b("_backward_gamma", {g, x}),\
    "Returns the gamma function (extension of the factorial function to the reals), "\
      "computed element-wise on the input array.") \
  ROW(kGammaln, "gammaln", false, std::lgamma(x),\
    b("_backward_gammaln", {g, x}),\
    "Returns element-wise log of the absolute value of the gamma function of the input.") \
  ROW(kRcbrt, "rcbrt", true, X(1) / std::cbrt(x),\
    b.Scalar("_mul_scalar", b.Div(b.Mul(g, y), x), -1.0 / 3),\
    "Returns element-wise inverse cube-root value of the input.\n\n"\
      ".. math::\n   rcbrt(x) = 1/\\sqrt[3]{x}\n\nExample::\n\n   rcbrt([1,8,-125]) = [1.0, 0.5, -0.2]") \
  ROW(kLog2, "log2", true, std::log2(x),\
    b.Scalar("_mul_scalar", b.Div(g, x), 1.4426950408889634),\
    "Returns element-wise Base-2 logarithmic value of the input.\n\n``2**log2(x) = x``") \
  ROW(kLog10, "log10", true, std::log10(x),\
    b.Scalar("_mul_scalar", b.Div(g, x), 0.43429448190325182),\
    "Returns element-wise Base-10 logarithmic value of the input.\n\n``10**log10(x) = x``") \
  ROW(kDegrees, "degrees", true, x * X(57.295779513082320876),\
    b.Scalar("_mul_scalar", g, 57.295779513082320876),\
    "Converts each element of the input array from radians to degrees.\n\n"\
      ".. math::\n   degrees([0, \\pi/2, \\pi, 3\\pi/2, 2\\pi]) = [0, 90, 180, 270, 360]") \
  ROW(kRadians, "radians", true, x * X(0.017453292519943295769),\
    b.Scalar("_mul_scalar", g, 0.017453292519943295769),\
    "Converts each element of the input array from degrees to radians.\n\n"\
      ".. math::\n   radians([0, 90, 180, 270, 360]) = [0, \\pi/2, \\pi, 3\\pi/2, 2\\pi]") \
  ROW(kSoftsign, "softsign", false, x / (X(1) + std::fabs(x)),\
    b.Div(g, b("square", {b.Scalar("_plus_scalar", b("abs", {x}), 1)})),\
    "Computes softsign of x element-wise.\n\n.. math::\n   y = x / (1 + abs(x))")
