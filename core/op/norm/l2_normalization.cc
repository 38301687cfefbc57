// L2Normalization (MXNet 1.x) and _backward_L2Normalization.
//
// Normalises vectors of data to unit L2 norm: out = data / sqrt(sum(data^2) + eps),
// the sum over all but axis 0 (mode 'instance'), over axis 1 (mode 'channel')
// or over axes 2.. (mode 'spatial'). Like MXNet the op has two outputs,
// (output, norm), and only output is visible; norm is (N,) for instance,
// data's shape with 1 at axis 1 for channel, (N, C) for spatial.
// _backward_L2Normalization takes (out_grad, output, norm), as MXNet's
// backward depends on them, and returns data's gradient
// (out_grad - output * sum(out_grad * output)) / norm.
// CPU kernels here, GPU kernels in l2_normalization.cu; both run
// l2_normalization_rules.h.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/norm/l2_normalization_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace nnm {

L2Layout L2LayoutOf(const Params& p, const Shape& s) {
  L2Layout l;
  l.eps = p.GetFloat("eps");
  const std::string& mode = p.GetString("mode");
  if (mode == "instance") {
    l.outer = s[0];
    l.n = s.ProdRange(1, s.ndim());
  } else if (mode == "channel") {
    l.outer = s[0];
    l.n = s[1];
    l.inner = s.ProdRange(2, s.ndim());
  } else {
    l.outer = s[0] * s[1];
    l.n = s.ProdRange(2, s.ndim());
  }
  return l;
}

}  // namespace nnm

namespace {

const char* kModes = "'instance', 'channel' or 'spatial'";

Shape NormShape(const Params& p, const Shape& d) {
  const std::string& op = p.op()->name;
  const std::string& mode = p.GetString("mode");
  if (mode == "instance") {
    WEFT_CHECK(d.ndim() >= 1, kShape) << op << ": input 'data' must have at least 1 dim in mode 'instance', got "
                                      << d.ToString();
    return Shape{d[0]};
  }
  WEFT_CHECK(d.ndim() >= 3, kShape) << op << ": input 'data' must have at least 3 dims in mode '" << mode
                                    << "' (N, C, spatial...), got " << d.ToString();
  if (mode == "channel") {
    Shape s = d;
    s[1] = 1;
    return s;
  }
  return Shape{d[0], d[1]};
}

void AddParams(OpDef& op) {
  op.add_param("eps", ParamType::kFloat, "1e-10", "A small constant for numerical stability.")
      .add_enum_param("mode", {"instance", "spatial", "channel"}, "instance",
                      std::string("Specify the dimension along which to compute L2 norm: ") + kModes + ".");
}

void ForwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  const nnm::L2Layout l = nnm::L2LayoutOf(p, in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "L2Normalization", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    T* norm = out[1].ptr<T>();
    nnm::ForEachIndex(l.outer * l.inner, SaturatingMul(3, l.n), [&](int64_t k) {
      nnm::L2NormForwardAt<T, nnx_cpu::Acc<T>>(k, l, x, req[0], y, req[1], norm);
    });
  })
}

void BackwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const nnm::L2Layout l = nnm::L2LayoutOf(p, in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_L2Normalization", T, {
    const T* gy = in[0].ptr<T>();
    const T* y = in[1].ptr<T>();
    const T* norm = in[2].ptr<T>();
    T* gx = out[0].ptr<T>();
    nnm::ForEachIndex(l.outer * l.inner, SaturatingMul(4, l.n), [&](int64_t k) {
      nnm::L2NormBackwardAt<T, nnx_cpu::Acc<T>>(k, l, gy, y, norm, req[0], gx);
    });
  })
}

[[maybe_unused]] const bool kL2NormalizationRegistered = [] {
  WEFT_REGISTER_OP(fwd, "L2Normalization").set_compute_gpu(WEFT_GPU(cuda::L2NormalizationGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe("Normalize the input array using the L2 norm.\n\n"
               "For 1-D NDArray, it computes::\n\n  out = data / sqrt(sum(data ** 2) + eps)\n\n"
               "For N-D NDArray, if the input array has shape (N, N, ..., N),\n\n"
               "with ``mode`` = ``instance``, it normalizes each instance in the multidimensional array by its L2 "
               "norm.::\n\n  for i in 0...N\n    out[i,:,:,...,:] = data[i,:,:,...,:] / "
               "sqrt(sum(data[i,:,:,...,:] ** 2) + eps)\n\n"
               "with ``mode`` = ``channel``, it normalizes each channel in the array by its L2 norm.::\n\n"
               "  for i in 0...N\n    out[:,i,:,...,:] = data[:,i,:,...,:] / sqrt(sum(data[:,i,:,...,:] ** 2) + "
               "eps)\n\n"
               "with ``mode`` = ``spatial``, it normalizes the cross channel norm for each position in the array "
               "by its L2 norm.::\n\n  for dim in 2...N\n    for i in 0...N\n      out[.....,i,...] = "
               "take(out, indices=i, axis=dim) / sqrt(sum(take(out, indices=i, axis=dim) ** 2) + eps)\n\n"
               "The hidden second output is the norm.")
      .add_input("data");
  AddParams(fwd);
  fwd.set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known() && (*out)[0].known()) AssignShape(in, 0, (*out)[0], "L2Normalization: input 'data'");
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        AssignShape(out, 0, d, "L2Normalization: output");
        AssignShape(out, 1, NormShape(p, d), "L2Normalization: output 'norm'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(ForwardCPU)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_L2Normalization", {og[0], OutputOf(n, 0), OutputOf(n, 1)});
      });
  fwd.num_visible_outputs = 1;
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "norm"}; };

  WEFT_REGISTER_OP(bwd, "_backward_L2Normalization").set_compute_gpu(WEFT_GPU(cuda::BackwardL2NormalizationGpu));
  bwd.describe("Gradient of L2Normalization from (out_grad, output, norm): (out_grad - output * sum(out_grad * "
               "output)) / norm along each normalised vector.")
      .add_input("out_grad")
      .add_input("output")
      .add_input("norm");
  AddParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        Shape d = (*in)[0].known() ? (*in)[0] : (*in)[1];
        if (!d.known()) return false;
        AssignShape(in, 0, d, "_backward_L2Normalization: input 'out_grad'");
        AssignShape(in, 1, d, "_backward_L2Normalization: input 'output'");
        AssignShape(in, 2, NormShape(p, d), "_backward_L2Normalization: input 'norm'");
        AssignShape(out, 0, d, "_backward_L2Normalization: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(BackwardCPU)
      .add_inplace(0, 0);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad"}; };
  return true;
}();

}  // namespace
}  // namespace weft
