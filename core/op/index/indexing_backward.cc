// The scatter-adds that undo take, pick and gather_nd: _backward_take,
// _backward_pick and _backward_gather_nd.
// Each backward op here takes the forward input whose shape (or dtype) its
// result has as an extra input: graph shape inference runs forward from the
// arguments, so a backward node cannot learn "the shape of the forward input"
// any other way.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/index/indexing_backward_cpu.h"

#include "core/opdef/op_def.h"

#include "core/op/index/indexing_gpu.h"
#include "core/op/op_util.h"
#include "core/op/out_grad_check.h"

namespace weft {
namespace {

// ---- _backward_take / _backward_pick / _backward_gather_nd ----

tensor_cpu::IndexMode ModeOf(const Params& p) {
  const std::string& m = p.GetString("mode");
  return m == "wrap" ? tensor_cpu::IndexMode::kWrap
                     : (m == "raise" ? tensor_cpu::IndexMode::kRaise : tensor_cpu::IndexMode::kClip);
}

// Inputs (out_grad, indices, data): output 0 has data's shape and out_grad's dtype.
bool ScatterShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[2].known()) return false;
  AssignShape(out, 0, (*in)[2], p.op()->name + ": output");
  if (!(*in)[0].known() || !(*in)[1].known()) return false;
  // The kernel walks indices and out_grad together: out_grad must be the forward's output shape.
  const std::string forward = p.op()->name.substr(std::string("_backward_").size());
  CheckOutGradOfForward(p, forward.c_str(), {(*in)[2], (*in)[1]}, (*in)[0]);
  return true;
}

bool ScatterType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  return TypeOfInput(p, in, out, 0);
}

WEFT_REGISTER_OP("_backward_take").set_compute_gpu(WEFT_GPU(cuda::BackwardTakeGpu))
    .describe("Gradient of take with respect to `a`: inputs (out_grad, indices, a); zeros of a's shape with "
              "out_grad's rows added where take read them (repeated indices accumulate). Only a's shape is "
              "read. Takes take's axis and mode.")
    .add_input("out_grad")
    .add_input("indices")
    .add_input("a")
    .add_param("axis", ParamType::kInt, "0", "The axis the forward took along.")
    .add_enum_param("mode", {"clip", "wrap", "raise"}, "clip", "How the forward handled out-of-range indices.")
    .set_infer_shape(ScatterShape)
    .set_infer_type(ScatterType)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[2].ndim(), "_backward_take", "a");
      tensor_cpu::TakeBackwardCPU(in[0], in[1], axis, ModeOf(p), req[0], out[0]);
    });

WEFT_REGISTER_OP("_backward_pick").set_compute_gpu(WEFT_GPU(cuda::BackwardPickGpu))
    .describe("Gradient of pick with respect to `data`: inputs (out_grad, index, data); zeros of data's "
              "shape except out_grad at each picked position. Only data's shape is read. Takes pick's "
              "axis, keepdims and mode.")
    .add_input("out_grad")
    .add_input("index")
    .add_input("data")
    .add_param("axis", ParamType::kInt, "-1", "The axis the forward picked along.")
    .add_param("keepdims", ParamType::kBool, "False", "Whether the forward kept the picked axis.")
    .add_enum_param("mode", {"clip", "wrap"}, "clip", "How the forward handled out-of-range indices.")
    .set_infer_shape(ScatterShape)
    .set_infer_type(ScatterType)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[2].ndim(), "_backward_pick", "data");
      tensor_cpu::PickBackwardCPU(in[0], in[1], axis, ModeOf(p), req[0], out[0]);
    });

WEFT_REGISTER_OP("_backward_gather_nd").set_compute_gpu(WEFT_GPU(cuda::BackwardGatherNdGpu))
    .describe("Gradient of gather_nd with respect to `data`: inputs (out_grad, indices, data); zeros of "
              "data's shape with each gathered slice of out_grad added back at its index (repeated indices "
              "accumulate, like MXNet's _backward_gather_nd). Only data's shape is read.")
    .add_input("out_grad")
    .add_input("indices")
    .add_input("data")
    .set_infer_shape(ScatterShape)
    .set_infer_type(ScatterType)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::GatherNDBackwardCPU(in[0], in[1], req[0], out[0]);
    });

}  // namespace
}  // namespace weft
