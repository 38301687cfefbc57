// SoftmaxOutput (alias Softmax) and _backward_SoftmaxOutput, MXNet 1.x: the
// forward is a softmax, the backward is the cross-entropy gradient computed
// from the output and the label (the head gradient is not an input, as in
// MXNet; out_grad is accepted for JSON compatibility). Gradient rules:
// core/op/softmax/softmax_output_cpu.cc.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/softmax/softmax_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/softmax/softmax_gpu.h"
#include "core/op/op_util.h"
#include "core/op/softmax/softmax_rules.h"

namespace weft {
namespace nnx {

// Declared in core/op/softmax/softmax_rules.h (shared with the GPU kernel).
AxisSplit SoftmaxOutputSplit(const Params& p, const Shape& s) {
  const int64_t total = s.Size();
  AxisSplit r;
  if (p.GetBool("multi_output")) {
    r.outer = s[0];
    r.n = s[1];
    r.inner = r.outer * r.n == 0 ? 0 : total / r.outer / r.n;
  } else if (p.GetBool("preserve_shape")) {
    r.n = s[s.ndim() - 1];
    r.outer = r.n == 0 ? 0 : total / r.n;
  } else {
    r.outer = s[0];
    r.n = r.outer == 0 ? 0 : total / r.outer;
  }
  return r;
}

}  // namespace nnx

namespace {

void AddParams(OpDef& op) {
  op.add_param("grad_scale", ParamType::kFloat, "1", "Scales the gradient by a float factor.")
      .add_param("ignore_label", ParamType::kFloat, "-1",
                 "The instances whose `labels` == `ignore_label` will be ignored during backward, if "
                 "`use_ignore` is set to ``true``).")
      .add_param("multi_output", ParamType::kBool, "False",
                 "If set to ``true``, the softmax function will be computed along axis ``1``. This is applied "
                 "when the shape of input array differs from the shape of label array.")
      .add_param("use_ignore", ParamType::kBool, "False",
                 "If set to ``true``, the `ignore_label` value will not contribute to the backward gradient.")
      .add_param("preserve_shape", ParamType::kBool, "False",
                 "If set to ``true``, the softmax function will be computed along the last axis (``-1``).")
      .add_enum_param("normalization", {"batch", "null", "valid"}, "null",
                      "Normalizes the gradient.")
      .add_param("out_grad", ParamType::kBool, "False",
                 "Multiplies gradient with output gradient element-wise (accepted; the backward operator "
                 "takes no head gradient).")
      .add_param("smooth_alpha", ParamType::kFloat, "0",
                 "Constant for computing a label smoothed version of cross-entropyfor the backwards pass.  This "
                 "constant gets subtracted from the one-hot encoding of the gold label and distributed "
                 "uniformly to all other labels.");
}

// Label shapes MXNet accepts (SoftmaxOutputShape); fills an unknown label.
void InferLabel(const Params& p, const Shape& d, Shape* label, const std::string& op) {
  if (*label == d) return;  // probabilities
  if (p.GetBool("multi_output")) {
    WEFT_CHECK(d.ndim() >= 2, kShape) << op << ": multi_output needs data of at least 2 dims, got "
                                      << d.ToString();
    const int64_t rest = d[0] * d[1] == 0 ? 0 : d.Size() / d[0] / d[1];
    Shape l1{d[0], rest};
    Shape l2;
    l2.push_back(d[0]);
    for (int i = 2; i < d.ndim(); ++i) l2.push_back(d[i]);
    Shape l3 = d;
    l3[1] = 1;
    if (!label->known()) {
      *label = l1;
      return;
    }
    WEFT_CHECK(*label == l1 || *label == l2 || *label == l3, kShape)
        << op << ": input 'label' has shape " << label->ToString() << "; expected " << l1.ToString() << " or "
        << l2.ToString() << " (or the data's shape " << d.ToString() << " for probabilities)";
    return;
  }
  WEFT_CHECK(d.ndim() >= 1, kShape) << op << ": input 'data' must have at least one dimension";
  Shape l(d.dims().begin(), d.dims().end() - 1);
  if (!label->known()) {
    *label = l;
    return;
  }
  WEFT_CHECK(*label == l, kShape) << op << ": input 'label' has shape " << label->ToString() << "; expected "
                                  << l.ToString() << " (or the data's shape " << d.ToString()
                                  << " for probabilities)";
}

[[maybe_unused]] const bool kSoftmaxOutputRegistered = [] {
  WEFT_REGISTER_OP(fwd, "SoftmaxOutput").set_compute_gpu(WEFT_GPU(cuda::SoftmaxOutputGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.add_alias("Softmax");
  fwd.describe("Computes the gradient of cross entropy loss with respect to softmax output.\n\n"
               "The forward pass returns softmax(data): by default data is reshaped to (d1, s/d1) and the softmax "
               "runs over each row; with preserve_shape over the last axis; with multi_output over axis 1.\n\n"
               "The backward pass (_backward_SoftmaxOutput) returns (output - onehot(label)) * grad_scale, "
               "where label holds class indices (or probabilities when it has data's shape); use_ignore "
               "zeroes the gradient of instances whose label is ignore_label, normalization divides by the "
               "batch size ('batch') or the number of non-ignored labels ('valid'), smooth_alpha smooths the "
               "one-hot target.")
      .add_input("data")
      .add_input("label");
  AddParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        InferLabel(p, d, &(*in)[1], "SoftmaxOutput");
        AssignShape(out, 0, d, "SoftmaxOutput: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const nnx::AxisSplit s = nnx::SoftmaxOutputSplit(p, in[0].shape);
        nnx_cpu::SoftmaxForward(in[0], s.outer, s.n, s.inner, 1.0, false, req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>&) {
        // A loss: the head gradient is not used (MXNet), the label gets zeros.
        return ViaBackwardOp(n, "_backward_SoftmaxOutput", {OutputOf(n, 0), n->inputs[1]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_SoftmaxOutput").set_compute_gpu(WEFT_GPU(cuda::BackwardSoftmaxOutputGpu));
  bwd.describe("Gradient of SoftmaxOutput from (output, label): data gets the cross-entropy gradient (see "
               "SoftmaxOutput), label gets zeros.")
      .add_input("output")
      .add_input("label");
  AddParams(bwd);
  bwd.set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        InferLabel(p, d, &(*in)[1], "_backward_SoftmaxOutput");
        AssignShape(out, 0, d, "_backward_SoftmaxOutput: output 0");
        AssignShape(out, 1, (*in)[1], "_backward_SoftmaxOutput: output 1");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        // The label's gradient first: out[0] may share memory with the output (in place).
        if (req[1] != OpReq::kAddTo && req[1] != OpReq::kNull)
          out[1].ZeroFill();
        nnx_cpu::SoftmaxOutputBackward(nnx_cpu::SoftmaxOutputGradParamsOf(p), in[0], in[1], req[0], out[0]);
      })
      .add_inplace(0, 0);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "label_grad"}; };
  return true;
}();

}  // namespace
}  // namespace weft
