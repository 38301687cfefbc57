// Matrix products: dot (MXNet's N-D rule: lhs is flattened to 2-D over all but
// its last axis, rhs over all but its first; transposes move the contracted
// axis to the other end) and batch_dot (a product per leading index).
// Kernels: core/op/cpu/dot.cc (OpenBLAS for float32/float64).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/backward_misc.h"
#include "core/op/cpu/dot.h"
#include "core/op/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using tensor_cpu::GemmDesc;

std::string PairText(const Shape& l, const Shape& r, bool ta, bool tb) {
  return "lhs " + l.ToString() + " and rhs " + r.ToString() + " (transpose_a=" + (ta ? "True" : "False") +
         ", transpose_b=" + (tb ? "True" : "False") + ")";
}

// Plans dot(lhs, rhs) and returns its output shape.
Shape PlanDot(const Params& p, const Shape& l, const Shape& r, GemmDesc* d) {
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

// Plans batch_dot: leading dims are batch dims and must match.
Shape PlanBatchDot(const Params& p, const Shape& l, const Shape& r, GemmDesc* d) {
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
  d->stride_a = lm * lk;
  d->stride_b = rk * rnn;
  d->stride_c = lm * rnn;
  Shape out(l.dims().begin(), l.dims().end() - 2);
  out.push_back(lm);
  out.push_back(rnn);
  return out;
}

using Planner = Shape (*)(const Params&, const Shape&, const Shape&, GemmDesc*);

OpDef& DotOp(const char* name, Planner plan, const std::string& doc) {
  OpDef& op = OpRegistry::Get()->Add(name);
  op.describe(doc)
      .add_input("lhs")
      .add_input("rhs")
      .add_param("transpose_a", ParamType::kBool, "False", "If True, use the transpose of lhs.")
      .add_param("transpose_b", ParamType::kBool, "False", "If True, use the transpose of rhs.")
      .add_optional_param("forward_stype", ParamType::kString,
                          "Output storage type; accepted for MXNet compatibility (only dense storage exists).")
      .set_infer_shape([plan](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known() || !(*in)[1].known()) return false;
        GemmDesc d;
        AssignShape(out, 0, plan(p, (*in)[0], (*in)[1], &d), p.op()->name + ": output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        bool done = SameTypeInfer(*p.op(), p, in, out);
        WEFT_CHECK((*out)[0] != DType::kBool, kDType) << p.op()->name << ": bool inputs are not supported";
        return done;
      })
      .set_compute_cpu([plan](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        GemmDesc d;
        plan(p, in[0].shape, in[1].shape, &d);
        tensor_cpu::GemmCPU(d, in[0], in[1], req[0], out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        // _backward_dot / _backward_batch_dot: see Note [Dot backward] in core/op/backward_misc.cc.
        GradBuilder b(n);
        const NodePtr g = b.NodeWithAttrs("_backward_" + n->op->name, {og[0], b.in(0), b.in(1)});
        return {OutputOf(g, 0), OutputOf(g, 1)};
      });
  return op;
}

[[maybe_unused]] OpDef& reg_dot = DotOp(
    "dot", PlanDot,
    "Dot product of two arrays.\n\n"
    "1-D x 1-D gives the inner product, shape (1,). Otherwise lhs of shape (a..., k) and rhs of "
    "shape (k, b...) give shape (a..., b...): lhs is flattened to 2-D over all axes but the "
    "last and rhs over all but the first. transpose_a contracts lhs's first axis instead "
    "(lhs (k, a...)); transpose_b contracts rhs's last axis (rhs (b..., k)).");

[[maybe_unused]] OpDef& reg_batch_dot = DotOp(
    "batch_dot", PlanBatchDot,
    "Batchwise matrix product: lhs (B, M, K) and rhs (B, K, N) give (B, M, N).\n\n"
    "transpose_a takes lhs as (B, K, M), transpose_b takes rhs as (B, N, K). Inputs of higher "
    "rank treat every axis but the last two as batch axes (they must match).");

}  // namespace
}  // namespace weft
