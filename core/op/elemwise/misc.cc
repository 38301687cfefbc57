// Elementwise operators that are neither unary math nor binary arithmetic:
// where (select), clip and Cast. Kernels: core/op/elemwise/elemwise_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// ---- where ----

// x, y and the output share a shape; condition has that shape too, or is 1-D
// with length x.shape[0] (MXNet's WhereOpShape).
bool WhereInferShape(const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
  Shape s = (*in)[1].known() ? (*in)[1] : ((*in)[2].known() ? (*in)[2] : (*out)[0]);
  if (!s.known()) return false;
  WEFT_CHECK(!(*in)[1].known() || !(*in)[2].known() || (*in)[1] == (*in)[2], kShape)
      << "where: inputs 'x' and 'y' must have the same shape, got " << (*in)[1].ToString() << " and "
      << (*in)[2].ToString();
  AssignShape(in, 1, s, "where: input 'x'");
  AssignShape(in, 2, s, "where: input 'y'");
  AssignShape(out, 0, s, "where: output");
  const Shape& c = (*in)[0];
  if (!c.known()) {
    (*in)[0] = s;  // the common case; a 1-D condition must be given explicitly
    return true;
  }
  if (c.ndim() == s.ndim()) {
    WEFT_CHECK(c == s, kShape) << "where: input 'condition' of shape " << c.ToString()
                               << " must have the shape of 'x' " << s.ToString()
                               << " or be 1-D with length x.shape[0]";
  } else {
    WEFT_CHECK(c.ndim() == 1 && s.ndim() >= 1 && c[0] == s[0], kShape)
        << "where: input 'condition' of shape " << c.ToString() << " must have the shape of 'x' "
        << s.ToString() << " or be 1-D with length x.shape[0]";
  }
  return true;
}

// condition may have any dtype; x, y and the output share one.
bool WhereInferType(const Params&, std::vector<DType>* in, std::vector<DType>* out) {
  DType t = (*in)[1] != DType::kUnknown ? (*in)[1] : ((*in)[2] != DType::kUnknown ? (*in)[2] : (*out)[0]);
  if (t == DType::kUnknown) return false;
  AssignType(in, 1, t, "where: input 'x'");
  AssignType(in, 2, t, "where: input 'y'");
  AssignType(out, 0, t, "where: output");
  return (*in)[0] != DType::kUnknown;
}

// Note [Partial shapes] (core/graph/infer_node.cc): where's condition may be 1-D.
WEFT_REGISTER_OP("where").set_compute_gpu(WEFT_GPU(cuda::WhereGpu)).add_method("where")
    .set_same_shape(SameShapeSlots{{1, 2}, {0}, false})
    .describe("Return the elements, either from x or y, depending on the condition.\n\n"
              "Given three ndarrays, condition, x, and y, return an ndarray with the elements from x "
              "or y, depending on the elements from condition are true or false. x and y must have "
              "the same shape. If condition has the same shape as x, each element in the output "
              "array is from x if the corresponding element in the condition is true, and from y "
              "if false.\n\nIf condition does not have the same shape as x, it must be a 1D array "
              "whose size is the same as x's first dimension size. Each row of the output array is "
              "from x's row if the corresponding element from condition is true, and from y's row "
              "if false.\n\nThe condition may have any dtype (nonzero is true); the output has the "
              "dtype of x and y.\n\nExample::\n\n  cond = [[0, 1], [-1, 0]]\n  x = [[1, 2], [3, 4]]\n"
              "  y = [[5, 6], [7, 8]]\n  where(cond, x, y) = [[5, 2], [3, 8]]\n\n"
              "  cond1d = [0, 1]\n  where(cond1d, x, y) = [[5, 6], [3, 4]]")
    .add_input("condition")
    .add_input("x")
    .add_input("y")
    .set_infer_shape(WhereInferShape)
    .set_infer_type(WhereInferType)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      elemwise_cpu::WhereKernel(in[0], in[1], in[2], req[0], out[0]);
    })
    .set_fusion(FusionClass::kElementwise)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // the condition gets zeros, as in MXNet
      const NodeEntry& c = b.in(0);
      const NodeEntry zero = b.Zeros(og[0]);
      return {b.Zeros(c), b("where", {c, og[0], zero}), b("where", {c, zero, og[0]})};
    });

// ---- clip ----

WEFT_REGISTER_OP("clip").set_compute_gpu(WEFT_GPU(cuda::ClipGpu)).add_method("clip")
    .set_same_shape(SameShapeSlots::All())
    .set_fused_form(FusedForm::kClip)
    .describe("Clips (limits) the values in an array.\n\n"
              "Given an interval, values outside the interval are clipped to the interval edges. "
              "Clipping ``x`` between `a_min` and `a_max` would be::\n\n"
              "   clip(x, a_min, a_max) = max(min(x, a_max), a_min))\n\nExample::\n\n"
              "    x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n\n"
              "    clip(x,1,8) = [ 1.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  8.]\n\n"
              "The bounds are converted to the input dtype first; NaN inputs stay NaN.")
    .add_input("data")
    .add_required_param("a_min", ParamType::kFloat, "Minimum value")
    .add_required_param("a_max", ParamType::kFloat, "Maximum value")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return SameShapeInfer(*p.op(), p, in, out);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      elemwise_cpu::ClipKernel(in[0], p.GetFloat("a_min"), p.GetFloat("a_max"), req[0], out[0]);
    })
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kElementwise)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // passes where a_min <= x <= a_max (MXNet's _backward_clip)
      const NodeEntry& x = b.in(0);
      const NodeEntry inside = b.Mul(b.Scalar("_greater_equal_scalar", x, n->params.GetFloat("a_min")),
                                     b.Scalar("_lesser_equal_scalar", x, n->params.GetFloat("a_max")));
      return {b.Mul(og[0], inside)};
    });

// ---- Cast ----

WEFT_REGISTER_OP("Cast").set_compute_gpu(WEFT_GPU(cuda::CastGpu)).add_method("cast")
    .set_same_shape(SameShapeSlots::All())
    .add_alias("cast")
    .describe("Casts all elements of the input to a new type.\n\n"
              ".. note:: ``Cast`` is deprecated. Use ``cast`` instead.\n\nExample::\n\n"
              "   cast([0.9, 1.3], dtype='int32') = [0, 1]\n"
              "   cast([1e20, 11.1], dtype='float16') = [inf, 11.09375]\n"
              "   cast([300, 11.1, 10.9, -1, -3], dtype='uint8') = [44, 11, 10, 255, 253]\n\n"
              "All nine dtypes convert in both directions. Floats to integers truncate toward zero; "
              "NaN gives 0 and values outside the int64 range saturate before wrapping to the "
              "target width. Anything nonzero (NaN included) becomes True in bool.")
    .add_input("data")
    .add_required_param("dtype", ParamType::kDType,
                        "Output data type: one of bfloat16, bool, float16, float32, float64, int32, "
                        "int64, int8, uint8.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return SameShapeInfer(*p.op(), p, in, out);
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      AssignType(out, 0, p.GetDType("dtype"), "Cast: output (dtype)");
      return (*in)[0] != DType::kUnknown;
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      elemwise_cpu::CastKernel(in[0], req[0], out[0]);
    })
    .set_fusion(FusionClass::kElementwise)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // back to the input's dtype
      return {b("_backward_Cast", {og[0], b.in(0)})};
    });

}  // namespace
}  // namespace weft
