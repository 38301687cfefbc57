// Matrix products: dot (MXNet's N-D rule: lhs is flattened to 2-D over all but
// its last axis, rhs over all but its first; transposes move the contracted
// axis to the other end) and batch_dot (a product per leading index).
// Kernels: core/op/dense/dot_cpu.cc (OpenBLAS for float32/float64).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/dense/dot_cpu.h"
#include "core/op/dense/dot_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/dense/dot_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using tensor_cpu::GemmDesc;

using Planner = Shape (*)(const Params&, const Shape&, const Shape&, GemmDesc*);

OpDef& DotOp(const char* name, Planner plan, FCompute gpu, const std::string& doc) {
  WEFT_REGISTER_OP(op, name).set_compute_gpu(std::move(gpu)).add_method(name);
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
        // _backward_dot / _backward_batch_dot: see Note [Dot backward] in core/op/dense/dot_backward.cc.
        GradBuilder b(n);
        const NodePtr g = b.NodeWithAttrs("_backward_" + n->op->name, {og[0], b.in(0), b.in(1)});
        return {OutputOf(g, 0), OutputOf(g, 1)};
      });
  return op;
}

[[maybe_unused]] OpDef& reg_dot = DotOp(
    "dot", tensor::DotGeometry, WEFT_GPU(cuda::DotGpu),
    "Dot product of two arrays.\n\n"
    "1-D x 1-D gives the inner product, shape (1,). Otherwise lhs of shape (a..., k) and rhs of "
    "shape (k, b...) give shape (a..., b...): lhs is flattened to 2-D over all axes but the "
    "last and rhs over all but the first. transpose_a contracts lhs's first axis instead "
    "(lhs (k, a...)); transpose_b contracts rhs's last axis (rhs (b..., k)).");

[[maybe_unused]] OpDef& reg_batch_dot = DotOp(
    "batch_dot", tensor::BatchDotGeometry, WEFT_GPU(cuda::BatchDotGpu),
    "Batchwise matrix product: lhs (B, M, K) and rhs (B, K, N) give (B, M, N).\n\n"
    "transpose_a takes lhs as (B, K, M), transpose_b takes rhs as (B, N, K). Inputs of higher "
    "rank treat every axis but the last two as batch axes (they must match).");

}  // namespace
}  // namespace weft
