// diag and _backward_diag: one strided copy each (Note [Ops that are one
// strided copy] in view_plan.h). A vector becomes a square matrix with it on
// the k-th diagonal; an array of 2+ dims gives its k-th diagonal over axis1
// and axis2 as a new last axis.
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/shape/view_plan.h"
#include "core/op/shape/view_plan_cpu.h"
#include "core/op/shape/view_plan_gpu.h"

namespace weft {
namespace {

OpDef& DiagParams(OpDef& op) {
  return op.add_param("k", ParamType::kInt, "0", "The diagonal: 0 the main one, k > 0 above it, k < 0 below.")
      .add_param("axis1", ParamType::kInt, "0", "The first axis of the 2-D planes the diagonal is taken from.")
      .add_param("axis2", ParamType::kInt, "1", "The second axis of the 2-D planes the diagonal is taken from.");
}

WEFT_REGISTER_OP(diag_decl, "diag");
[[maybe_unused]] OpDef& diag_op = DiagParams(
    diag_decl.set_compute_gpu(WEFT_GPU(cuda::DiagGpu)).add_method("diag")
        .describe("Extracts a diagonal or constructs a diagonal array.\n\n"
                  "A 1-D input of length n gives an (n + |k|, n + |k|) matrix with the input on its k-th "
                  "diagonal, zeros elsewhere. An input of 2 or more dimensions gives its k-th diagonal over "
                  "axis1 and axis2: those axes are removed and the diagonal appended as the last axis.")
        .add_input("data")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          if (!(*in)[0].known()) return false;
          AssignShape(out, 0, tensor::DiagShape(p, (*in)[0]), "diag: output");
          return true;
        })
        .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::DiagPlan))
        .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
          GradBuilder b(n);
          return {b("_backward_diag", {og[0], b.in(0)}, b.Attrs("_backward_diag"))};
        }));

WEFT_REGISTER_OP(backward_diag_decl, "_backward_diag");
[[maybe_unused]] OpDef& backward_diag_op = DiagParams(
    backward_diag_decl.set_compute_gpu(WEFT_GPU(cuda::BackwardDiagGpu))
        .describe("Gradient of diag: out_grad put back where diag read it (zeros elsewhere), or, for a 1-D "
                  "`data`, out_grad's k-th diagonal (only data's shape is read).")
        .add_input("out_grad")
        .add_input("data")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          if (!ShapeOfInput(p, in, out, 1)) return false;
          AssignShape(in, 0, tensor::DiagShape(p, (*in)[1]), "_backward_diag: input 'out_grad'");
          return true;
        })
        .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
          return TypeOfInput(p, in, out, 0);
        })
        .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          tensor_cpu::RunViewPlan(tensor::BackwardDiagPlan(p, in[0].shape, out[0].shape), in[0], req[0], out[0]);
        })
        // Linear in out_grad: the second-order gradient is diag of the incoming one.
        .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
          GradBuilder b(n);
          return {b("diag", {og[0]}, b.Attrs("diag")), b.Zeros(b.in(1))};
        }));

}  // namespace
}  // namespace weft
