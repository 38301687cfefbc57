// The GEMM plans of dot and batch_dot (dot_rules.h).
#include "core/op/dense/dot_rules.h"

#include <string>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace tensor {
namespace {

std::string PairText(const Shape& l, const Shape& r, bool ta, bool tb) {
  return "lhs " + l.ToString() + " and rhs " + r.ToString() + " (transpose_a=" + (ta ? "True" : "False") +
         ", transpose_b=" + (tb ? "True" : "False") + ")";
}

}  // namespace

Shape DotGeometry(const Params& p, const Shape& l, const Shape& r, tensor_cpu::GemmDesc* d) {
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  tensor::CheckMinNDim(l, 1, "dot", "lhs");
  tensor::CheckMinNDim(r, 1, "dot", "rhs");
  d->trans_a = ta;
  d->trans_b = tb;
  if (l.ndim() == 1 && r.ndim() == 1) {
    WEFT_CHECK(!ta && !tb, kInvalidArgument) << "dot: cannot transpose 1-D inputs (" << PairText(l, r, ta, tb) << ")";
    WEFT_CHECK(l[0] == r[0], kShape) << "dot: inner dimensions differ for " << PairText(l, r, ta, tb);
    d->m = 1;
    d->n = 1;
    d->k = l[0];
    return Shape{1};
  }
  const int ln = l.ndim(), rn = r.ndim();
  // lhs as [rows, cols]: rows = all but last (or, transposed, cols = all but first).
  Shape lrows, lcols, rrows, rcols;
  if (ta) {
    lrows = Shape{l[0]};
    lcols = ln > 1 ? Shape(l.dims().begin() + 1, l.dims().end()) : Shape{1};
  } else {
    lrows = ln > 1 ? Shape(l.dims().begin(), l.dims().end() - 1) : Shape{1};
    lcols = Shape{l[ln - 1]};
  }
  if (tb) {
    rrows = rn > 1 ? Shape(r.dims().begin(), r.dims().end() - 1) : Shape{1};
    rcols = Shape{r[rn - 1]};
  } else {
    rrows = Shape{r[0]};
    rcols = rn > 1 ? Shape(r.dims().begin() + 1, r.dims().end()) : Shape{1};
  }
  const Shape& lk = ta ? lrows : lcols;
  const Shape& lm = ta ? lcols : lrows;
  const Shape& rk = tb ? rcols : rrows;
  const Shape& rn_ = tb ? rrows : rcols;
  WEFT_CHECK(lk.Size() == rk.Size(), kShape)
      << "dot: inner dimensions differ (" << lk.Size() << " vs " << rk.Size() << ") for " << PairText(l, r, ta, tb);
  d->m = lm.Size();
  d->k = lk.Size();
  d->n = rn_.Size();
  Shape out;
  if (ln > 1) for (int64_t v : lm.dims()) out.push_back(v);
  if (rn > 1) for (int64_t v : rn_.dims()) out.push_back(v);
  return out;
}

Shape BatchDotGeometry(const Params& p, const Shape& l, const Shape& r, tensor_cpu::GemmDesc* d) {
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  WEFT_CHECK(l.ndim() >= 3 && l.ndim() == r.ndim(), kShape)
      << "batch_dot: expected 3-D (or higher, equal-rank) inputs, got " << PairText(l, r, ta, tb);
  const int nd = l.ndim();
  for (int i = 0; i < nd - 2; ++i)
    WEFT_CHECK(l[i] == r[i], kShape) << "batch_dot: batch dimensions differ for " << PairText(l, r, ta, tb);
  const int64_t lm = ta ? l[nd - 1] : l[nd - 2], lk = ta ? l[nd - 2] : l[nd - 1];
  const int64_t rk = tb ? r[nd - 1] : r[nd - 2], rnn = tb ? r[nd - 2] : r[nd - 1];
  WEFT_CHECK(lk == rk, kShape) << "batch_dot: inner dimensions differ (" << lk << " vs " << rk << ") for "
                               << PairText(l, r, ta, tb);
  d->trans_a = ta;
  d->trans_b = tb;
  d->m = lm;
  d->n = rnn;
  d->k = lk;
  d->batch = l.ProdRange(0, nd - 2);
  // Saturating: a stride can overflow only when an operand is empty (then unused).
  d->stride_a = SaturatingMul(lm, lk);
  d->stride_b = SaturatingMul(rk, rnn);
  d->stride_c = SaturatingMul(lm, rnn);
  Shape out(l.dims().begin(), l.dims().end() - 2);
  out.push_back(lm);
  out.push_back(rnn);
  return out;
}

}  // namespace tensor
}  // namespace weft
