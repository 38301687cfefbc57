// GroupNorm (MXNet 1.x, Wu & He 2018) and _backward_GroupNorm.
//
// data (N, C, spatial...) is split into num_groups groups of C / num_groups
// channels; each (sample, group) is normalised over its channels and spatial
// positions with the population variance, then scaled and shifted by the
// group's gamma and beta, which are (num_groups,) in MXNet 1.x. Outputs are
// (output, mean, std), mean and std = sqrt(var + eps) of shape
// (N, num_groups); all three are visible with output_mean_var (MXNet).
// _backward_GroupNorm takes (out_grad, data, gamma, mean, std) and returns
// the gradients of data, gamma and beta. MXNet requires 3-D data or more;
// 2-D (N, C) is accepted too (spatial size 1). CPU kernels here, GPU kernels
// in group_norm.cu; both run group_norm_rules.h.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/norm/group_norm_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace nnm {

GroupLayout GroupLayoutOf(const Params& p, const Shape& s) {
  GroupLayout l;
  l.groups = p.GetInt("num_groups");
  l.rows = CheckedMul(s[0], l.groups, "GroupNorm: batch x num_groups");
  // Saturating: only an empty batch (rows == 0, no loop reads m) can have a group size beyond int64.
  l.m = SaturatingMul(s[1] / l.groups, s.ProdRange(2, s.ndim()));
  l.eps = p.GetFloat("eps");
  return l;
}

}  // namespace nnm

namespace {

void AddParams(OpDef& op) {
  op.add_param("num_groups", ParamType::kInt, "1", "Total number of groups.")
      .add_param("eps", ParamType::kFloat, "1e-05", "An `epsilon` parameter to prevent division by 0.")
      .add_param("output_mean_var", ParamType::kBool, "False", "Output the mean and std calculated along the given axis.");
}

// Checks data against num_groups; the (N, G) shape of mean and std.
Shape MomentShape(const Params& p, const Shape& d) {
  const std::string& op = p.op()->name;
  const int64_t g = p.GetInt("num_groups");
  WEFT_CHECK(g >= 1, kInvalidArgument) << op << ": parameter 'num_groups' must be >= 1, got " << g;
  WEFT_CHECK(d.ndim() >= 2, kShape) << op << ": input 'data' must have at least 2 dims (batch, channel, ...), got "
                                    << d.ToString();
  WEFT_CHECK(d[1] % g == 0, kShape) << op << ": input 'data' has " << d[1]
                                    << " channels (axis 1), not divisible by num_groups=" << g;
  return Shape{d[0], g};
}

void ForwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  const nnm::GroupLayout l = nnm::GroupLayoutOf(p, in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "GroupNorm", T, {
    const T* x = in[0].ptr<T>();
    const T* g = in[1].ptr<T>();
    const T* b = in[2].ptr<T>();
    T* y = out[0].ptr<T>();
    T* m = out[1].ptr<T>();
    T* s = out[2].ptr<T>();
    nnm::ForEachIndex(l.rows, SaturatingMul(4, l.m), [&](int64_t r) {
      nnm::GroupNormForwardAt<T, nnx_cpu::Acc<T>>(r, l, x, g, b, req[0], y, req[1], m, req[2], s);
    });
  })
}

void BackwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  const nnm::GroupLayout l = nnm::GroupLayoutOf(p, in[1].shape);
  WEFT_NNX_FLOAT_SWITCH(in[1].dtype, "_backward_GroupNorm", T, {
    using A = nnx_cpu::Acc<T>;
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* gamma = in[2].ptr<T>();
    const T* mean = in[3].ptr<T>();
    const T* sd = in[4].ptr<T>();
    if (req[1] != OpReq::kNull || req[2] != OpReq::kNull)
      nnm::ForEachIndex(l.groups, SaturatingMul(SaturatingMul(4, l.m), l.rows / l.groups), [&](int64_t g) {
        nnm::GroupNormBackwardParamAt<T, A>(g, l, gy, x, mean, sd, req[1], out[1].ptr<T>(), req[2], out[2].ptr<T>());
      });
    if (req[0] != OpReq::kNull)
      nnm::ForEachIndex(l.rows, SaturatingMul(6, l.m), [&](int64_t r) {
        nnm::GroupNormBackwardDataAt<T, A>(r, l, gy, x, gamma, mean, sd, req[0], out[0].ptr<T>());
      });
  })
}

[[maybe_unused]] const bool kGroupNormRegistered = [] {
  WEFT_REGISTER_OP(fwd, "GroupNorm").set_compute_gpu(WEFT_GPU(cuda::GroupNormGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe("Group normalization.\n\n"
               "The input channels are separated into ``num_groups`` groups, each containing ``num_channels / "
               "num_groups`` channels. The mean and standard-deviation are calculated separately over the each "
               "group.\n\n"
               ".. math::\n\n  data = data.reshape((N, num_groups, C // num_groups, ...))\n"
               "  out = \\frac{data - mean(data, axis)}{\\sqrt{var(data, axis) + \\epsilon}} * gamma + beta\n\n"
               "gamma and beta are (num_groups,), one per group. The hidden outputs are the mean and the standard "
               "deviation sqrt(var + eps), each (N, num_groups).")
      .add_input("data")
      .add_input("gamma")
      .add_input("beta");
  AddParams(fwd);
  fwd.set_num_outputs(3)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known() && (*out)[0].known()) AssignShape(in, 0, (*out)[0], "GroupNorm: input 'data'");
        const Shape& d = (*in)[0];
        const Shape param{p.GetInt("num_groups")};
        AssignShape(in, 1, param, "GroupNorm: input 'gamma' (num_groups,)");
        AssignShape(in, 2, param, "GroupNorm: input 'beta' (num_groups,)");
        if (!d.known()) return false;
        const Shape ms = MomentShape(p, d);
        AssignShape(out, 0, d, "GroupNorm: output");
        AssignShape(out, 1, ms, "GroupNorm: output 'mean'");
        AssignShape(out, 2, ms, "GroupNorm: output 'std'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(ForwardCPU)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        const std::vector<NodeEntry>& x = n->inputs;
        return ViaBackwardOp(n, "_backward_GroupNorm", {og[0], x[0], x[1], OutputOf(n, 1), OutputOf(n, 2)});
      });
  fwd.num_visible_outputs_fn = [](const Params& p) { return p.GetBool("output_mean_var") ? 3 : 1; };
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "mean", "std"}; };

  WEFT_REGISTER_OP(bwd, "_backward_GroupNorm").set_compute_gpu(WEFT_GPU(cuda::BackwardGroupNormGpu));
  bwd.describe("Gradient of GroupNorm from (out_grad, data, gamma, mean, std): the gradients of data, gamma and "
               "beta.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("gamma")
      .add_input("mean")
      .add_input("std");
  AddParams(bwd);
  bwd.set_num_outputs(3)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[1];
        if (!d.known()) return false;
        const Shape ms = MomentShape(p, d);
        const Shape param{p.GetInt("num_groups")};
        AssignShape(in, 0, d, "_backward_GroupNorm: input 'out_grad'");
        AssignShape(in, 2, param, "_backward_GroupNorm: input 'gamma'");
        AssignShape(in, 3, ms, "_backward_GroupNorm: input 'mean'");
        AssignShape(in, 4, ms, "_backward_GroupNorm: input 'std'");
        AssignShape(out, 0, d, "_backward_GroupNorm: output 0");
        AssignShape(out, 1, param, "_backward_GroupNorm: output 1");
        AssignShape(out, 2, param, "_backward_GroupNorm: output 2");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(BackwardCPU);
  bwd.list_output_names = [](const Params&) {
    return std::vector<std::string>{"data_grad", "gamma_grad", "beta_grad"};
  };
  return true;
}();

}  // namespace
}  // namespace weft
