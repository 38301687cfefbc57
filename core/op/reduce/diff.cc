// _npi_diff (np.diff, MXNet 1.9.1's registered name) and _backward_npi_diff:
// the n-th discrete difference along an axis, out[i] = a[i+1] - a[i] applied
// n times, in the input's dtype (bool: not_equal; integers wrap), the axis
// shortened by n (to 0 when n >= its length). The gradient applies the
// transposed difference n times to the output gradient (Note [Diff by
// repeated differences], diff_rules.h). Kernels: diff_cpu.cc, diff.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/out_grad_check.h"
#include "core/op/reduce/diff_cpu.h"
#include "core/op/reduce/diff_rules.h"
#include "core/op/reduce/diff_gpu.h"

namespace weft {
namespace tensor {

DiffGeom DiffGeomOf(const Params& p, const Shape& a) {
  const std::string& op = p.op()->name;
  WEFT_CHECK(a.ndim() >= 1, kShape) << op << ": input 'a' must be at least one dimensional, got a 0-d array";
  DiffGeom g;
  g.n = p.GetInt("n");
  WEFT_CHECK(g.n >= 0, kInvalidArgument) << op << ": order 'n' must be non-negative but got " << g.n;
  g.axis = NormalizeAxis(p.GetInt("axis"), a.ndim(), op, "a");
  g.outer = a.ProdRange(0, g.axis);
  g.len = a[g.axis];
  g.inner = a.ProdRange(g.axis + 1, a.ndim());
  return g;
}

Shape DiffOutShape(const DiffGeom& g, const Shape& a) {
  Shape s = a;
  s[g.axis] = g.out_len();
  return s;
}

}  // namespace tensor

namespace {

WEFT_REGISTER_OP("_npi_diff")
    .describe("Calculate the n-th discrete difference along the given axis: out[i] = a[i+1] - a[i], applied n "
              "times (bool inputs: not_equal). The axis shrinks by n (to 0 when n is at least its length).\n\n"
              "Example::\n\n   diff([1, 2, 4, 7, 0]) = [1, 2, 3, -7]\n   diff([1, 2, 4, 7, 0], n=2) = [1, 1, -10]")
    .add_input("a")
    .add_param("n", ParamType::kInt, "1", "The number of times values are differenced. If zero, the input is "
                                          "returned as-is.")
    .add_param("axis", ParamType::kInt, "-1", "Axis along which the difference is taken (negative counts from the "
                                              "end).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& a = (*in)[0];
      if (!a.known()) return false;
      AssignShape(out, 0, tensor::DiffOutShape(tensor::DiffGeomOf(p, a), a), p.op()->name + ": output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::Diff(tensor::DiffGeomOf(p, in[0].shape), in[0], req[0], out[0]);
    })
    .set_compute_gpu(WEFT_GPU(cuda::DiffGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
      return ViaBackwardOp(n, "_backward_npi_diff", {og[0], n->inputs[0]});
    });

WEFT_REGISTER_OP("_backward_npi_diff")
    .describe("Gradient of np.diff from (out_grad, a): the transposed first difference applied n times to "
              "out_grad, in a's shape and dtype (floating dtypes).")
    .add_input("out_grad")
    .add_input("a")
    .add_param("n", ParamType::kInt, "1", "The order of the forward difference.")
    .add_param("axis", ParamType::kInt, "-1", "The axis of the forward difference.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& a = (*in)[1];
      if (!a.known()) return false;
      AssignShape(out, 0, a, p.op()->name + ": output");
      if ((*in)[0].known()) CheckOutGradOfForward(p, "_npi_diff", {a}, (*in)[0]);
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 1);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::DiffBackward(tensor::DiffGeomOf(p, in[1].shape), in[0], req[0], out[0]);
    })
    .set_compute_gpu(WEFT_GPU(cuda::BackwardDiffGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      // linear in out_grad: its adjoint is the forward difference of the incoming gradient
      GradBuilder b(n);
      return {OutputOf(b.NodeWithAttrs("_npi_diff", {og[0]})), b.Zeros(b.in(1))};
    });

}  // namespace
}  // namespace weft
