// _contrib_arange_like and _contrib_index_array (MXNet 1.x contrib): arrays of
// evenly spaced values shaped like the input (or like one of its axes), and
// the int64 coordinates of every input element along all (or the given) axes.
// arange_like's gradient is zero; index_array's int64 output carries none.
// Kernels: index_fill_cpu.cc, index_fill.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/init/index_fill_cpu.h"
#include "core/op/init/index_fill_rules.h"
#include "core/op/init/index_fill_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor {

ArangeLike ArangeLikeOf(const Params& p) {
  ArangeLike a;
  a.start = p.GetFloat("start");
  a.step = p.GetFloat("step");
  a.repeat = p.GetInt("repeat");
  WEFT_CHECK(a.repeat >= 1, kInvalidArgument)
      << p.op()->name << ": parameter 'repeat' must be at least 1, got " << a.repeat;
  return a;
}

IndexArrayPlan IndexArrayPlanOf(const Params& p, const Shape& data) {
  const std::string& op = p.op()->name;
  IndexArrayPlan plan;
  plan.ndim = data.ndim();
  WEFT_CHECK(plan.ndim <= IndexArrayPlan::kMaxDims, kShape)
      << op << ": input 'data' has " << plan.ndim << " dimensions, at most " << IndexArrayPlan::kMaxDims
      << " are supported";
  for (int d = 0; d < plan.ndim; ++d) {
    plan.dim[d] = data[d];
    plan.elements *= data[d];
  }
  if (p.IsNone("axes")) {
    plan.m = plan.ndim;
    for (int d = 0; d < plan.ndim; ++d) plan.axis[d] = d;
  } else {
    const std::vector<int64_t>& axes = p.GetTuple("axes");
    CheckNoNone(axes, op, "axes");
    WEFT_CHECK(static_cast<int>(axes.size()) <= IndexArrayPlan::kMaxDims, kInvalidArgument)
        << op << ": parameter 'axes' has more than " << IndexArrayPlan::kMaxDims << " entries";
    for (int64_t a : axes) plan.axis[plan.m++] = NormalizeAxis(a, plan.ndim, op, "data", 0, "axes");
  }
  return plan;
}

}  // namespace tensor

namespace {

[[maybe_unused]] const bool kRegistered = [] {
  WEFT_REGISTER_OP(ar, "_contrib_arange_like");
  ar.set_compute_gpu(WEFT_GPU(cuda::ArangeLikeGpu));
  ar.describe("Return an array with evenly spaced values. If axis is not given, the output will \n"
              "have the same shape as the input array. Otherwise, the output will be a 1-D array with size of \n"
              "the specified axis in input shape.\n\nExamples::\n\n  x = [[0.14883883 0.7772398  0.94865847 "
              "0.7225052 ]\n       [0.23729339 0.6112595  0.66538996 0.5132841 ]\n"
              "       [0.30822644 0.9912457  0.15502319 0.7043658 ]]\n  <NDArray 3x4 @cpu(0)>\n\n"
              "  out = mx.nd.contrib.arange_like(x, start=0)\n\n    [[ 0.  1.  2.  3.]\n     [ 4.  5.  6.  7.]\n"
              "     [ 8.  9. 10. 11.]]\n    <NDArray 3x4 @cpu(0)>\n\n"
              "  out = mx.nd.contrib.arange_like(x, start=0, axis=-1)\n\n    [0. 1. 2. 3.]\n    <NDArray 4 @cpu(0)>")
      .add_input("data")
      .add_param("start", ParamType::kFloat, "0", "Start of interval. The interval includes this value. The default "
                                                  "start value is 0.")
      .add_param("step", ParamType::kFloat, "1", "Spacing between values.")
      .add_param("repeat", ParamType::kInt, "1",
                 "The repeating time of all elements. E.g repeat=3, the element a will be repeated three times --> "
                 "a, a, a.")
      .add_param("ctx", ParamType::kString, "", "Context of output, in format [cpu|gpu|cpu_pinned](n).Only used for "
                                                "imperative calls.")
      .add_optional_param("axis", ParamType::kInt, "Arange elements according to the size of a certain axis of "
                                                   "input array. The negative numbers are interpreted counting "
                                                   "from the backward. If not provided, will arange elements "
                                                   "according to the input shape.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        tensor::ArangeLikeOf(p);
        if (p.IsNone("axis")) {
          AssignShape(out, 0, d, p.op()->name + ": output");
        } else {
          const int ax = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), p.op()->name, "data");
          AssignShape(out, 0, Shape{d[ax]}, p.op()->name + ": output");
        }
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>&,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::ArangeLikeCPU(tensor::ArangeLikeOf(p), req[0], out[0]);
      })
      .set_gradient(ZeroGradients);

  WEFT_REGISTER_OP(ia, "_contrib_index_array");
  ia.set_compute_gpu(WEFT_GPU(cuda::IndexArrayGpu));
  ia.describe("Returns an array of indexes of the input array.\n\n"
              "For an input array with shape  :math:`(d_1, d_2, ..., d_n)`, `index_array` returns a "
              ":math:`(d_1, d_2, ..., d_n, n)` array `idx`, where :math:`idx[i_1, i_2, ..., i_n, :] = "
              "[i_1, i_2, ..., i_n]`.\n\nAdditionally, when the parameter `axes` is specified, `idx` will be a "
              ":math:`(d_1, d_2, ..., d_n, m)` array where `m` is the length of `axes`, and the following equality "
              "will hold: :math:`idx[i_1, i_2, ..., i_n, j] = i_{axes[j]}`.\n\nThe output dtype is int64.")
      .add_input("data")
      .add_optional_param("axes", ParamType::kShape,
                          "The axes to include in the index array. Supports negative values.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        const tensor::IndexArrayPlan plan = tensor::IndexArrayPlanOf(p, d);
        Shape o = d;
        o.push_back(plan.m);
        AssignShape(out, 0, o, p.op()->name + ": output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>*, std::vector<DType>* out) {
        AssignType(out, 0, DType::kInt64, p.op()->name + ": output");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::IndexArrayCPU(tensor::IndexArrayPlanOf(p, in[0].shape), req[0], out[0]);
      });  // int64 coordinates: no gradient flows (MXNet's is zeros)
  return true;
}();

}  // namespace
}  // namespace weft
