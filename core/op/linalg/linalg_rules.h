// What the linalg family's CPU kernels (blas3.cc, factor.cc, diag.cc) and GPU
// kernels (linalg_*.cu) must agree on: where matrix b of a batch starts in a
// row-major buffer, and the checks of the declarations' shape inference.
//
// Note [Linalg batches]
// Every _linalg_* op works on the trailing two axes and loops over the leading
// ones. gemm and gemm2 also take `axis`, the axis of the matrix rows (MXNet:
// the same as swapaxes(axis, -2), gemm, swapaxes back): the buffer is then
// viewed as (outer, rows, inner, cols), matrix (o, i) starts at
// (o * rows * inner + i) * cols and its rows are inner * cols apart.
#pragma once
#include <cstdint>
#include <string>

#include "core/base/error.h"
#include "core/base/shape.h"
#include "core/op/common/hd.h"

namespace weft {
namespace linalg {

struct MatBatch {
  int64_t batch = 1;  // matrices
  int64_t rows = 0, cols = 0;
  int64_t ld = 0;     // distance between rows
  int64_t inner = 1;  // Note [Linalg batches]
  WEFT_HD int64_t Offset(int64_t b) const { return ((b / inner) * rows * inner + (b % inner)) * cols; }
};

// The batch of matrices of `s` whose rows lie on `axis` (0 <= axis < ndim-1)
// and whose columns are the last axis.
inline MatBatch Layout(const Shape& s, int axis) {
  MatBatch m;
  const int nd = s.ndim();
  m.rows = s[axis];
  m.cols = s[nd - 1];
  for (int i = 0; i < axis; ++i) m.batch *= s[i];
  for (int i = axis + 1; i < nd - 1; ++i) m.inner *= s[i];
  m.batch *= m.inner;
  m.ld = m.inner * m.cols;
  return m;
}
inline MatBatch Layout(const Shape& s) { return Layout(s, s.ndim() - 2); }

// Matrices of a (batch..., n) array of vectors: rows 1.
inline int64_t LeadingSize(const Shape& s, int trailing) {
  int64_t b = 1;
  for (int i = 0; i + trailing < s.ndim(); ++i) b *= s[i];
  return b;
}

inline void CheckMatrices(const std::string& op, const char* arg, const Shape& s) {
  WEFT_CHECK(s.ndim() >= 2, kShape) << op << ": input '" << arg << "' must have at least 2 dimensions "
                                    << "(a matrix or a batch of matrices), got shape " << s.ToString();
}
inline void CheckSquare(const std::string& op, const char* arg, const Shape& s) {
  CheckMatrices(op, arg, s);
  WEFT_CHECK(s[s.ndim() - 1] == s[s.ndim() - 2], kShape)
      << op << ": input '" << arg << "' must be a (batch of) square matrices, got shape " << s.ToString();
}
// The leading (batch) axes of a and b agree.
inline void CheckSameBatch(const std::string& op, const char* a, const Shape& sa, const char* b, const Shape& sb) {
  bool same = sa.ndim() == sb.ndim();
  for (int i = 0; same && i + 2 < sa.ndim(); ++i) same = sa[i] == sb[i];
  WEFT_CHECK(same, kShape) << op << ": inputs '" << a << "' " << sa.ToString() << " and '" << b << "' "
                           << sb.ToString() << " must have the same rank and the same leading (batch) dimensions";
}

}  // namespace linalg
}  // namespace weft
