// moments (MXNet 1.x): the mean and the (population) variance of the input
// over `axes` (all axes when None), the reduced axes kept as size 1 with
// keepdims; and its backward _backward_moments(g_mean, g_var, data, mean) =
// (g_mean + 2 g_var (data - mean)) / N. Kernels: moments_cpu.cc, moments.cu.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/reduce/moments_cpu.h"
#include "core/op/reduce/moments_rules.h"
#include "core/op/reduce/moments_gpu.h"

namespace weft {
namespace tensor {

MomentsPlan MomentsPlanOf(const Params& p, const Shape& in, Shape* out_shape) {
  const std::string& op = p.op()->name;
  const int nd = in.ndim();
  WEFT_CHECK(nd <= MomentsPlan::kMaxDims, kShape)
      << op << ": input 'data' has " << nd << " dimensions, at most " << MomentsPlan::kMaxDims << " are supported";
  std::vector<bool> red(static_cast<size_t>(nd), p.IsNone("axes"));
  if (!p.IsNone("axes")) {
    const std::vector<int64_t>& axes = p.GetTuple("axes");
    CheckNoNone(axes, op, "axes");
    for (int64_t a : axes) {
      const int ax = NormalizeAxis(a, nd, op, "data", 0, "axes");
      WEFT_CHECK(!red[static_cast<size_t>(ax)], kInvalidArgument)
          << op << ": parameter 'axes' has duplicates: axes=" << TupleString(axes);
      red[static_cast<size_t>(ax)] = true;
    }
  }
  MomentsPlan plan;
  std::vector<int64_t> stride(static_cast<size_t>(nd), 1);
  // Saturating: only a zero-size input's strides can pass int64, and none of them is used.
  for (int d = nd - 2; d >= 0; --d)
    stride[static_cast<size_t>(d)] = SaturatingMul(stride[static_cast<size_t>(d) + 1], in[d + 1]);
  Shape out;
  const bool keep = p.GetBool("keepdims");
  for (int d = 0; d < nd; ++d) {
    if (red[static_cast<size_t>(d)]) {
      plan.rdim[plan.nr] = in[d];
      plan.rstride[plan.nr++] = stride[static_cast<size_t>(d)];
      plan.reduced = SaturatingMul(plan.reduced, in[d]);  // past int64 only beside a 0 kept dim
      if (keep) out.push_back(1);
    } else {
      plan.kdim[plan.nk] = in[d];
      plan.kstride[plan.nk++] = stride[static_cast<size_t>(d)];
      plan.kept = SaturatingMul(plan.kept, in[d]);
      out.push_back(in[d]);
    }
  }
  if (out.ndim() == 0) out = Shape{1};  // legacy (non-NumPy) reductions never return 0-d
  if (out_shape) *out_shape = out;
  return plan;
}

}  // namespace tensor

namespace {

void AddMomentsParams(OpDef& op) {
  op.add_optional_param("axes", ParamType::kShape, "Array of ints. Axes along which to compute mean and variance.")
      .add_param("keepdims", ParamType::kBool, "False", "produce moments with the same dimensionality as the input.");
}

[[maybe_unused]] const bool kMomentsRegistered = [] {
  WEFT_REGISTER_OP(fwd, "moments");
  fwd.set_compute_gpu(WEFT_GPU(cuda::MomentsGpu));
  fwd.describe("Calculate the mean and variance of `data`.\n\n"
               "The mean and variance are calculated by aggregating the contents of data across axes.\n"
               "If x is 1-D and axes = [0] this is just the mean and variance of a vector.\n\n"
               "Example:\n\n     x = [[1, 2, 3], [4, 5, 6]]\n     mean, var = moments(data=x, axes=[0])\n"
               "     mean = [2.5, 3.5, 4.5]\n     var = [2.25, 2.25, 2.25]\n"
               "     mean, var = moments(data=x, axes=[1])\n     mean = [2.0, 5.0]\n"
               "     var = [0.66666667, 0.66666667]\n     mean, var = moments(data=x, axis=[0, 1])\n"
               "     mean = [3.5]\n     var = [2.9166667]")
      .add_input("data")
      .set_num_outputs(2);
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"mean", "var"}; };
  AddMomentsParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        Shape o;
        tensor::MomentsPlanOf(p, (*in)[0], &o);
        AssignShape(out, 0, o, p.op()->name + ": output 'mean'");
        AssignShape(out, 1, o, p.op()->name + ": output 'var'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::MomentsCPU(tensor::MomentsPlanOf(p, in[0].shape), in[0], req, out[0], out[1]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_moments", {og[0], og[1], n->inputs[0], OutputOf(n, 0)});
      });

  WEFT_REGISTER_OP(bwd, "_backward_moments");
  bwd.set_compute_gpu(WEFT_GPU(cuda::BackwardMomentsGpu));
  bwd.describe("Gradient of moments from (g_mean, g_var, data, mean): (g_mean + 2 g_var (data - mean)) / N, N the "
               "number of elements reduced into each output.")
      .add_input("g_mean")
      .add_input("g_var")
      .add_input("data")
      .add_input("mean");
  AddMomentsParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[2].known()) return false;
        Shape o;
        tensor::MomentsPlanOf(p, (*in)[2], &o);
        for (size_t i : {size_t(0), size_t(1), size_t(3)})
          AssignShape(in, i, o, p.op()->name + ": input '" + nnx::InputName(p, i) + "'");
        AssignShape(out, 0, (*in)[2], p.op()->name + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::MomentsBackwardCPU(tensor::MomentsPlanOf(p, in[2].shape), in[0], in[1], in[2], in[3], req[0],
                                       out[0]);
      });
  return true;
}();

}  // namespace
}  // namespace weft
