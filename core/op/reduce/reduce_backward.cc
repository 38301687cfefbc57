// The backward ops of the reductions and broadcasts: _broadcast_backward
// (sum back to an input's shape), _backward_sum and _backward_mean.
// Each backward op here takes the forward input whose shape (or dtype) its
// result has as an extra input: graph shape inference runs forward from the
// arguments, so a backward node cannot learn "the shape of the forward input"
// any other way.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/reduce/reduce_backward_cpu.h"

#include "core/opdef/op_def.h"

#include "core/op/reduce/broadcast_reduce_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// ---- _broadcast_backward ----

WEFT_REGISTER_OP("_broadcast_backward").set_compute_gpu(WEFT_GPU(cuda::BroadcastBackwardGpu))
    .describe("Sums out_grad back to the shape of `like` (the gradient of an input that was broadcast): "
              "`like` is left-padded with 1s to out_grad's ndim and out_grad is summed over every axis "
              "where `like` has size 1. Only like's shape is read. Used by the broadcast_* operators, "
              "broadcast_to, broadcast_axis and broadcast_like.")
    .add_input("out_grad")
    .add_input("like")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      const Shape& g = (*in)[0];
      const Shape& l = (*in)[1];
      bool ok = l.ndim() <= g.ndim();
      for (int i = 0; ok && i < l.ndim(); ++i) {
        const int64_t d = l[i], gd = g[i + g.ndim() - l.ndim()];
        ok = d == gd || d == 1;
      }
      WEFT_CHECK(ok, kShape) << "_broadcast_backward: input 'like' of shape " << l.ToString()
                             << " does not broadcast to out_grad's shape " << g.ToString();
      AssignShape(out, 0, l, "_broadcast_backward: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::SumToShapeCPU(in[0], req[0], out[0]);
    })
    .set_fusion(FusionClass::kReduce)
    // Second order: the adjoint of summing to like's shape is broadcasting back
    // to out_grad's shape (broadcast_add onto zeros pads the axes as numpy does).
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("broadcast_add", {b.Zeros(b.in(0)), og[0]}), b.Zeros(b.in(1))};
    });

// ---- _backward_sum / _backward_mean ----

// The dims of `data` a reduction with p's axis / exclude flags reduced.
std::vector<bool> ReducedDims(const Params& p, const Shape& data) {
  const int nd = data.ndim();
  const std::string& op = p.op()->name;
  if (p.IsNone("axis") || p.GetTuple("axis").empty()) return std::vector<bool>(static_cast<size_t>(nd), true);
  std::vector<bool> red(static_cast<size_t>(nd), false);
  tensor::CheckNoNone(p.GetTuple("axis"), op, "axis");
  for (int64_t a : p.GetTuple("axis")) red[static_cast<size_t>(tensor::NormalizeAxis(a, nd, op, "data"))] = true;
  if (p.GetBool("exclude")) red.flip();
  return red;
}

int64_t ReducedCount(const std::vector<bool>& red, const Shape& data) {
  int64_t n = 1;
  for (int i = 0; i < data.ndim(); ++i)
    if (red[static_cast<size_t>(i)]) n *= data[i];
  return n;
}

void RegisterReduceBackward(const char* name, bool mean, FCompute gpu) {
  WEFT_REGISTER_OP(op, name).set_compute_gpu(std::move(gpu));
  op.describe(std::string("Gradient of ") + (mean ? "mean" : "sum") +
              " (and, combined with elementwise ops, of max, min, prod, nansum, nanprod and norm): "
              "out_grad, which has the reduced shape (with or without keepdims), is broadcast back to the "
              "shape of `data`" + (mean ? " and divided by the number of elements reduced" : "") +
              ". Takes the forward reduction's axis and exclude; only data's shape is read.")
      .add_input("out_grad")
      .add_input("data")
      .add_optional_param("axis", ParamType::kShape, "The axes the forward operator reduced. None: all axes.")
      .add_param("keepdims", ParamType::kBool, "False", "Accepted from the forward operator (the shape of "
                 "out_grad already says it).")
      .add_param("exclude", ParamType::kBool, "False", "If True, the forward reduced every axis not in `axis`.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapeOfInput(p, in, out, 1)) return false;
        const Shape& d = (*in)[1];
        const int64_t reduced = ReducedCount(ReducedDims(p, d), d);
        WEFT_CHECK(d.Size() == 0 || (*in)[0].Size() * reduced == d.Size(), kShape)
            << p.op()->name << ": out_grad of shape " << (*in)[0].ToString()
            << " does not have the reduced size of data " << (*in)[1].ToString();
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0);
      })
      .set_compute_cpu([mean](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const std::vector<bool> red = ReducedDims(p, in[1].shape);
        const int64_t n = ReducedCount(red, in[1].shape);
        const double scale = mean && n > 0 ? 1.0 / static_cast<double>(n) : 1.0;
        tensor_cpu::BroadcastReducedCPU(in[0], red, scale, req[0], out[0]);
      })
      .set_fusion(FusionClass::kInjective)
      // Second order: the op is linear in out_grad, and its adjoint is the
      // forward reduction (sum or mean) with the same axis, keepdims and
      // exclude, which gives back out_grad's shape. data's values are unread.
      .set_gradient([mean](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {OutputOf(b.NodeWithAttrs(mean ? "mean" : "sum", {og[0]})), b.Zeros(b.in(1))};
      });
}

[[maybe_unused]] const bool kReduceBackwardRegistered = [] {
  RegisterReduceBackward("_backward_sum", false, WEFT_GPU(cuda::BackwardSumGpu));
  RegisterReduceBackward("_backward_mean", true, WEFT_GPU(cuda::BackwardMeanGpu));
  return true;
}();

}  // namespace
}  // namespace weft
