// Declaration helpers of the linalg family (blas3.cc, factor.cc, diag.cc): the
// float32/float64 type rule, the CPU write-mode wrapper and the graph pieces
// the gradient rules are built from.
#pragma once
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/opdef/op_def.h"

// Runs the statements with T = double for float64 and T = float otherwise: the
// family's ops take only those two (FloatTypeInfer, and the _np linalg ops'
// own type rules refuse the rest before a kernel runs). One definition for
// the family's files, which unity builds compile together.
#define WEFT_LINALG_REAL(dt, T, ...) \
  if ((dt) == DType::kFloat64) {     \
    using T = double;                \
    __VA_ARGS__                      \
  } else {                           \
    using T = float;                 \
    __VA_ARGS__                      \
  }

namespace weft {
namespace linalg {

// Every input and output shares the dtype of input 0, which must be float32 or
// float64 (MXNet's linalg operators support only those); throws kDType naming
// the op and the input.
bool FloatTypeInfer(const Params& p, std::vector<DType>* in, std::vector<DType>* out);

// Runs compute(dst) writing the whole of `out` and honours req: kAddTo
// computes into a temporary and adds it.
template <typename T, typename F>
void WithReq(OpReq req, const TensorView& out, F compute) {
  if (req == OpReq::kNull) return;
  if (req != OpReq::kAddTo) {
    compute(out.ptr<T>());
    return;
  }
  std::vector<T> tmp(static_cast<size_t>(out.Size()));
  compute(tmp.data());
  T* o = out.ptr<T>();
  for (size_t i = 0; i < tmp.size(); ++i) o[i] += tmp[i];
}

// Gradient-rule pieces (op attributes as text).
inline std::string B2S(bool v) { return v ? "True" : "False"; }
// alpha op(A) op(B) as a _linalg_gemm2 node.
NodeEntry Gemm2(GradBuilder& b, const NodeEntry& a, const NodeEntry& bb, bool ta, bool tb, double alpha,
                const std::string& axis = "-2");
// x (batch..., n, n) with its last two axes swapped.
NodeEntry TransposeSquare(GradBuilder& b, const NodeEntry& x);
// The lower (or upper) triangle of x, diagonal included, the rest zero.
NodeEntry Triangle(GradBuilder& b, const NodeEntry& x, bool lower);
// x (batch..., n, n) scaled per matrix by s (batch...), or (1,) for one matrix.
NodeEntry ScaleMatrices(GradBuilder& b, const NodeEntry& x, const NodeEntry& s);

}  // namespace linalg
}  // namespace weft
