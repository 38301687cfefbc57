// The parametrised pointwise rules of hard_sigmoid, _contrib_quadratic (and
// its backward) and _contrib_div_sqrt_dim, written once for the CPU kernels
// (pointwise_cpu.cc) and the GPU kernels (pointwise.cu), as Note [One
// elementwise rule] does for the kinds without parameters.
#pragma once
#include <cmath>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace pointwise {

enum class PointKind : int {
  kHardSigmoid,    // max(0, min(1, p0 x + p1))           (alpha, beta)
  kQuadratic,      // p0 x^2 + p1 x + p2                  (a, b, c)
  kQuadraticGrad,  // g (2 p0 x + p1): the gradient of kQuadratic
  kScale,          // p0 x                                (_contrib_div_sqrt_dim: 1/sqrt(d))
};

// The value at x (and the output gradient g, for the *Grad kinds), in the
// arithmetic type A (float for the 16-bit floats).
template <typename A>
WEFT_HD inline A PointValue(PointKind kind, A x, A g, A p0, A p1, A p2) {
  switch (kind) {
    case PointKind::kHardSigmoid: {
      const A v = p0 * x + p1;
      return v < A(0) ? A(0) : (v > A(1) ? A(1) : v);
    }
    case PointKind::kQuadratic: return p0 * x * x + p1 * x + p2;
    case PointKind::kQuadraticGrad: return g * (A(2) * p0 * x + p1);
    default: return p0 * x;
  }
}

struct PointArgs {
  double p0 = 0, p1 = 0, p2 = 0;
};
// The kernel's parameters from the op's (x: the data's shape), shared by the
// CPU and GPU factories.
inline PointArgs ArgsOf(PointKind kind, const Params& p, const Shape& x) {
  PointArgs a;
  switch (kind) {
    case PointKind::kHardSigmoid: a.p0 = p.GetFloat("alpha"); a.p1 = p.GetFloat("beta"); break;
    case PointKind::kQuadratic:
    case PointKind::kQuadraticGrad: a.p0 = p.GetFloat("a"); a.p1 = p.GetFloat("b"); a.p2 = p.GetFloat("c"); break;
    default: a.p0 = 1.0 / std::sqrt(static_cast<double>(x.ndim() > 0 ? x[x.ndim() - 1] : 1)); break;
  }
  return a;
}

// The Grad kinds read (out_grad, data); the others (data).
inline bool TakesGrad(PointKind kind) { return kind == PointKind::kQuadraticGrad; }

}  // namespace pointwise
}  // namespace weft
