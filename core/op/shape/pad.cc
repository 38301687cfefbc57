// Pad (alias pad, MXNet 1.x) and _backward_Pad. MXNet accepts only 4-D and
// 5-D inputs padded on the spatial axes; Weft pads any axis of any rank with
// the same parameters and results. Kernels: core/op/shape/pad_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/shape/pad_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/shape/pad_gpu.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace {

using nnx_cpu::PadMode;

void AddPadParams(OpDef& op) {
  op.add_enum_param("mode", {"constant", "edge", "reflect"}, "constant",
                    "Padding type to use. \"constant\" pads with `constant_value` \"edge\" pads using the edge "
                    "values of the input array \"reflect\" pads by reflecting values with respect to the edges.")
      .add_required_param("pad_width", ParamType::kShape,
                          "Widths of the padding regions applied to the edges of each axis. It is a tuple of "
                          "integer padding widths for each axis of the format ``(before_1, after_1, ... , "
                          "before_N, after_N)``. It should be of length ``2*N`` where ``N`` is the number of "
                          "dimensions of the array.")
      .add_param("constant_value", ParamType::kFloat, "0",
                 "The value used for padding when `mode` is \"constant\".");
}

PadMode ModeOf(const Params& p) {
  const std::string& m = p.GetString("mode");
  return m == "edge" ? PadMode::kEdge : m == "reflect" ? PadMode::kReflect : PadMode::kConstant;
}

// Checks pad_width against an unpadded shape `in`; returns the before-pads.
std::vector<int64_t> Pads(const Params& p, const Shape& in, Shape* padded) {
  const std::string& op = p.op()->name;
  const std::vector<int64_t>& w = p.GetTuple("pad_width");
  tensor::CheckNoNone(w, op, "pad_width");
  WEFT_CHECK(in.ndim() >= 1, kShape) << op << ": cannot pad a 0-d array";
  WEFT_CHECK(static_cast<int>(w.size()) == 2 * in.ndim(), kInvalidArgument)
      << op << ": parameter 'pad_width' " << tensor::TupleString(w) << " must have 2 * ndim = " << 2 * in.ndim()
      << " entries for input of shape " << in.ToString();
  std::vector<int64_t> before;
  Shape o = in;
  for (int d = 0; d < in.ndim(); ++d) {
    const int64_t b = w[static_cast<size_t>(2 * d)], a = w[static_cast<size_t>(2 * d + 1)];
    WEFT_CHECK(b >= 0 && a >= 0, kInvalidArgument)
        << op << ": parameter 'pad_width' " << tensor::TupleString(w) << " has a negative width";
    if (ModeOf(p) == PadMode::kReflect) {
      WEFT_CHECK(b < in[d] && a < in[d], kInvalidArgument)
          << op << ": reflect padding needs widths smaller than the axis, but axis " << d << " has size " << in[d]
          << " and pad_width " << tensor::TupleString(w);
    }
    if (ModeOf(p) == PadMode::kEdge) {
      WEFT_CHECK(in[d] > 0 || (a == 0 && b == 0), kInvalidArgument)
          << op << ": edge padding of the empty axis " << d;
    }
    before.push_back(b);
    o[d] = CheckedAdd(CheckedAdd(in[d], a, "Pad: padded axis"), b, "Pad: padded axis");
  }
  if (padded != nullptr) *padded = o;
  return before;
}

// The unpadded shape of a padded one.
Shape Unpadded(const Params& p, const Shape& out) {
  const std::vector<int64_t>& w = p.GetTuple("pad_width");
  WEFT_CHECK(static_cast<int>(w.size()) == 2 * out.ndim(), kInvalidArgument)
      << p.op()->name << ": parameter 'pad_width' " << tensor::TupleString(w) << " must have 2 * ndim = "
      << 2 * out.ndim() << " entries for out_grad of shape " << out.ToString();
  Shape in = out;
  for (int d = 0; d < out.ndim(); ++d) {
    in[d] = out[d] - w[static_cast<size_t>(2 * d)] - w[static_cast<size_t>(2 * d + 1)];
    WEFT_CHECK(in[d] >= 0, kShape) << p.op()->name << ": out_grad of shape " << out.ToString()
                                   << " is smaller than pad_width " << tensor::TupleString(w);
  }
  return in;
}

[[maybe_unused]] const bool kPadRegistered = [] {
  WEFT_REGISTER_OP(fwd, "Pad").set_compute_gpu(WEFT_GPU(cuda::PadGpu)).add_method("pad");
  fwd.add_alias("pad");
  fwd.describe("Pads an input array with a constant or edge values of the array.\n\n"
               "Three modes: constant (pads with constant_value), edge (repeats the edge values) and reflect "
               "(reflects the array around its edges, not repeating the edge, like numpy's 'reflect').\n\n"
               "Example::\n\n   x = [[[[  1.   2.   3.]\n          [  4.   5.   6.]]]]\n\n"
               "   pad(x,mode=\"edge\", pad_width=(0,0,0,0,1,1,1,1)) =\n\n"
               "         [[[[  1.   1.   2.   3.   3.]\n            [  1.   1.   2.   3.   3.]\n"
               "            [  4.   4.   5.   6.   6.]\n            [  4.   4.   5.   6.   6.]]]]")
      .add_input("data");
  AddPadParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        Shape o;
        Pads(p, (*in)[0], &o);
        AssignShape(out, 0, o, "Pad: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::PadForward(in[0], Pads(p, in[0].shape, nullptr), ModeOf(p), p.GetFloat("constant_value"), req[0],
                            out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_Pad", {og[0]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_Pad").set_compute_gpu(WEFT_GPU(cuda::BackwardPadGpu));
  bwd.describe("Gradient of Pad from out_grad: the inner region, plus (edge, reflect) the padded entries added "
               "back onto the elements they copy.")
      .add_input("out_grad");
  AddPadParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const Shape x = Unpadded(p, (*in)[0]);
        Pads(p, x, nullptr);
        AssignShape(out, 0, x, "_backward_Pad: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::PadBackward(in[0], Pads(p, out[0].shape, nullptr), ModeOf(p), req[0], out[0]);
      });
  return true;
}();

}  // namespace
}  // namespace weft
