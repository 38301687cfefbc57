// _np_cumsum (MXNet 1.9's cumsum, registered under its NumPy name with the
// alias cumsum) and _backward_np_cumsum: the running sum along an axis, or
// over the flattened array when axis is None (the output is then 1-D), in the
// input dtype (bool gives int64) or `dtype`. The gradient is the running sum
// of the output gradient from the end, in the input's shape and dtype.
// Kernels: cumsum_cpu.cc, cumsum.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/out_grad_check.h"
#include "core/op/reduce/cumsum_cpu.h"
#include "core/op/reduce/cumsum_rules.h"
#include "core/op/reduce/cumsum_gpu.h"

namespace weft {
namespace tensor {

CumsumRows CumsumRowsOf(const Params& p, const Shape& s) {
  CumsumRows r;
  if (p.IsNone("axis")) {
    r.n = s.Size();
    return r;
  }
  const int axis = NormalizeAxis(p.GetInt("axis"), s.ndim(), p.op()->name, "a");
  r.outer = s.ProdRange(0, axis);
  r.n = s[axis];
  r.inner = s.ProdRange(axis + 1, s.ndim());
  return r;
}

}  // namespace tensor

namespace {

void AddCumsumParams(OpDef& op) {
  op.add_optional_param("axis", ParamType::kInt,
                        "Axis along which the cumulative sum is computed. The default (None) is to compute the "
                        "cumsum over the flattened array.")
      .add_optional_param("dtype", ParamType::kDType,
                          "Type of the returned array and of the accumulator in which the elements are summed. If "
                          "dtype is not specified, it defaults to the dtype of a, unless a has an integer dtype with "
                          "a precision less than that of the default platform integer. In that case, the default "
                          "platform integer is used.");
}

// The output dtype: `dtype`, else the input's (bool: int64).
DType CumsumOutType(const Params& p, DType in) {
  if (!p.IsNone("dtype")) {
    const DType t = p.GetDType("dtype");
    WEFT_CHECK(t == DType::kFloat16 || t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kInt8 ||
                   t == DType::kInt32 || t == DType::kInt64,
               kDType)
        << p.op()->name << ": parameter 'dtype' must be one of float16, float32, float64, int8, int32, int64, got "
        << DTypeName(t);
    return t;
  }
  return in == DType::kBool ? DType::kInt64 : in;
}

[[maybe_unused]] const bool kCumsumRegistered = [] {
  WEFT_REGISTER_OP(fwd, "_np_cumsum").add_alias("cumsum");
  fwd.set_compute_gpu(WEFT_GPU(cuda::CumsumGpu));
  fwd.describe("Return the cumulative sum of the elements along a given axis.\n\n"
               "Example::\n\n   cumsum([[1, 2, 3], [4, 5, 6]]) = [1, 3, 6, 10, 15, 21]\n"
               "   cumsum([[1, 2, 3], [4, 5, 6]], axis=0) = [[1, 2, 3], [5, 7, 9]]")
      .add_input("a");
  AddCumsumParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& a = (*in)[0];
        if (p.IsNone("axis")) {
          if (!a.known()) return false;
          AssignShape(out, 0, Shape(std::vector<int64_t>{a.Size()}), p.op()->name + ": output");
          return true;
        }
        if (a.ndim() > 0) tensor::NormalizeAxis(p.GetInt("axis"), a.ndim(), p.op()->name, "a");
        return SameShapeInfer(*p.op(), p, in, out);
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        if ((*in)[0] == DType::kUnknown) return false;
        AssignType(out, 0, CumsumOutType(p, (*in)[0]), p.op()->name + ": output");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::Cumsum("cumsum", tensor::CumsumRowsOf(p, in[0].shape), false, in[0], req[0], out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_np_cumsum", {og[0], n->inputs[0]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_np_cumsum");
  bwd.set_compute_gpu(WEFT_GPU(cuda::BackwardCumsumGpu));
  bwd.describe("Gradient of cumsum from (out_grad, a): the running sum of out_grad from the end along the axis "
               "(of the flattened array for axis None), in a's shape and dtype.")
      .add_input("out_grad")
      .add_input("a");
  AddCumsumParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& a = (*in)[1];
        if (!a.known()) return false;
        AssignShape(out, 0, a, p.op()->name + ": output");
        // The scan reads out_grad in a's rows.
        if ((*in)[0].known()) CheckOutGradOfForward(p, "_np_cumsum", {a}, (*in)[0]);
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 1);
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::Cumsum("_backward_np_cumsum", tensor::CumsumRowsOf(p, in[1].shape), true, in[0], req[0],
                           out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        // linear in out_grad: the forward cumsum of the incoming gradient (already
        // out_grad's shape: 1-D for axis None)
        GradBuilder b(n);
        return {OutputOf(b.NodeWithAttrs("_np_cumsum", {og[0]})), b.Zeros(b.in(1))};
      });
  return true;
}();

}  // namespace
}  // namespace weft
