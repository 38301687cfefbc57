// The backward ops of the shape family: _backward_reshape, _backward_Concat
// and _backward_slice_axis.
// Each backward op here takes the forward input whose shape (or dtype) its
// result has as an extra input: graph shape inference runs forward from the
// arguments, so a backward node cannot learn "the shape of the forward input"
// any other way.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/shape/slice_backward_cpu.h"
#include "core/op/shape/concat_cpu.h"
#include "core/op/common/copy_cpu.h"

#include "core/opdef/op_def.h"
#include "core/op/shape/reshape_transpose_gpu.h"
#include "core/op/shape/concat_slice_gpu.h"

#include "core/op/op_util.h"
#include "core/op/out_grad_check.h"

namespace weft {
namespace {

// ---- _backward_reshape ----

WEFT_REGISTER_OP("_backward_reshape").set_compute_gpu(WEFT_GPU(cuda::BackwardReshapeGpu))
    .describe("Gradient of Reshape, Flatten, expand_dims and squeeze: out_grad's elements in the shape of "
              "`data` (only data's shape is read).")
    .add_input("out_grad")
    .add_input("data")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!ShapeOfInput(p, in, out, 1)) return false;
      WEFT_CHECK((*in)[0].Size() == (*in)[1].Size(), kShape)
          << "_backward_reshape: out_grad of shape " << (*in)[0].ToString() << " has another size than data "
          << (*in)[1].ToString();
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
    })
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    // Second order: the incoming gradient back in out_grad's shape.
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_backward_reshape", {og[0], b.in(0)}), b.Zeros(b.in(1))};
    });

// ---- _backward_Concat ----

[[maybe_unused]] const bool kConcatBackwardRegistered = [] {
  WEFT_REGISTER_OP(op, "_backward_Concat").set_compute_gpu(WEFT_GPU(cuda::BackwardConcatGpu));
  op.describe("Gradient of Concat: inputs (out_grad, arg0, ..., arg{num_args-1}), where the args are the "
              "forward inputs (only their shapes are read); output i is the part of out_grad along `dim` "
              "that came from arg i.")
      .set_variadic("num_args")
      .add_required_param("num_args", ParamType::kInt, "Number of inputs the forward Concat joined.")
      .add_param("dim", ParamType::kInt, "1", "The axis the forward joined along.")
      .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapesOfArgs(p, in, out)) return false;
        // The split reads out_grad as the args laid end to end: it must be exactly their Concat.
        const Shape& g = (*in)[0];
        const int axis = tensor::NormalizeAxis(p.GetInt("dim"), g.ndim(), "_backward_Concat", "out_grad", 0, "dim");
        bool ok = true;
        int64_t joined = 0;
        for (size_t i = 1; ok && i < in->size(); ++i) {
          const Shape& a = (*in)[i];
          ok = a.ndim() == g.ndim();
          for (int d = 0; ok && d < g.ndim(); ++d) ok = d == axis || a[d] == g[d];
          if (ok) joined = CheckedAdd(joined, a[axis], "_backward_Concat: joined axis");
        }
        WEFT_CHECK(ok && joined == g[axis], kShape)
            << "_backward_Concat: out_grad of shape " << g.ToString() << " is not the Concat along axis " << axis
            << " of the args' shapes";
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const int axis = tensor::NormalizeAxis(p.GetInt("dim"), in[0].ndim(), "_backward_Concat", "out_grad", 0,
                                               "dim");
        tensor_cpu::SplitCPU(in[0], in[0].shape.ProdRange(0, axis), req, out);
      });
  op.list_input_names = GradAndArgs;
  op.list_output_names = ArgGrads;
  return true;
}();

// ---- _backward_slice_axis ----

[[maybe_unused]] const bool kSliceAxisBackwardRegistered = [] {
  WEFT_REGISTER_OP(op, "_backward_slice_axis").set_compute_gpu(WEFT_GPU(cuda::BackwardSliceAxisGpu));
  op.describe("Gradient of slice_axis: zeros of data's shape with out_grad at data[..., begin:end, ...] "
              "along `axis` (only data's shape is read). Takes slice_axis's parameters.")
      .add_input("out_grad")
      .add_input("data")
      .add_required_param("axis", ParamType::kInt, "The axis the forward sliced.")
      .add_required_param("begin", ParamType::kInt, "The first index of the forward (negative counts from the end).")
      .add_optional_param("end", ParamType::kInt, "The stop index of the forward; None: the axis size.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapeOfInput(p, in, out, 1)) return false;
        const Shape& d = (*in)[1];
        const int axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "_backward_slice_axis", "data");
        const Shape& g = (*in)[0];
        bool ok = g.ndim() == d.ndim() && g[axis] <= d[axis];
        for (int i = 0; ok && i < d.ndim(); ++i) ok = i == axis || g[i] == d[i];
        WEFT_CHECK(ok, kShape)
            << "_backward_slice_axis: out_grad of shape " << (*in)[0].ToString() << " is not a slice along axis "
            << axis << " of data " << d.ToString();
        // The kernel writes out_grad at begin: begin and end must be the forward's slice of data.
        CheckOutGradOfForward(p, "slice_axis", {d}, g);
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0);
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const Shape& d = in[1].shape;
        const int axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "_backward_slice_axis", "data");
        int64_t begin = p.GetInt("begin");
        if (begin < 0) begin += d[axis];
        tensor_cpu::SliceAxisBackwardCPU(in[0], axis, begin, req[0], out[0]);
      })
      // Second order: the adjoint of placing out_grad in the slice is taking the slice.
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {OutputOf(b.NodeWithAttrs("slice_axis", {og[0]})), b.Zeros(b.in(1))};
      });
  return true;
}();

}  // namespace
}  // namespace weft
