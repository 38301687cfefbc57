// LinearRegressionOutput, MAERegressionOutput and LogisticRegressionOutput
// (MXNet 1.x) with their backward operators, named as in MXNet
// (_backward_linear_reg_out, _backward_mae_reg_out, _backward_logistic_reg_out)
// and taking (label, output) like MXNet's RegressionOpGrad. The gradient is
// scaled by grad_scale / num_output, num_output = label.size / label.shape[0].
// Kernels: core/op/loss/loss_cpu.cc.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/loss/loss_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/loss/regression_output_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using nnx_cpu::RegressionKind;

// MXNet's RegressionOpShape: a (n, 1) data takes an (n,) label by default.
void InferLabel(const Shape& d, Shape* l, const std::string& op) {
  if (!l->known()) {
    *l = (d.ndim() == 2 && d[1] == 1) ? Shape{d[0]} : d;
    return;
  }
  WEFT_CHECK(l->ndim() >= 1 && d.ndim() >= 1 && (*l)[0] == d[0] && l->Size() == d.Size(), kShape)
      << op << ": input 'label' has shape " << l->ToString() << ", inconsistent with data " << d.ToString()
      << " (same first dimension and size expected)";
}

void RegisterRegression(const char* name, const char* bwd_name, RegressionKind kind, FCompute gpu,
                        FCompute gpu_backward, const std::string& doc) {
  WEFT_REGISTER_OP(fwd, name).set_compute_gpu(std::move(gpu));
  fwd.describe(doc).add_input("data").add_input("label");
  fwd.add_param("grad_scale", ParamType::kFloat, "1", "Scale the gradient by a float factor")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        InferLabel((*in)[0], &(*in)[1], p.op()->name);
        AssignShape(out, 0, (*in)[0], p.op()->name + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([kind](const OpContext&, const Params&, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::RegressionForward(kind, in[0], req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_gradient([bwd = std::string(bwd_name)](const NodePtr& n, const std::vector<NodeEntry>&) {
        // A loss: the head gradient is not used (MXNet), the label gets zeros.
        return ViaBackwardOp(n, bwd, {n->inputs[1], OutputOf(n, 0)});
      });

  WEFT_REGISTER_OP(bwd, bwd_name).set_compute_gpu(std::move(gpu_backward));
  bwd.describe(std::string("Gradient of ") + name + " from (label, output); the label's gradient is zero.")
      .add_input("label")
      .add_input("output")
      .add_param("grad_scale", ParamType::kFloat, "1", "Scale the gradient by a float factor")
      .set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known()) return false;
        InferLabel((*in)[1], &(*in)[0], p.op()->name);
        AssignShape(out, 0, (*in)[1], p.op()->name + ": output 0");
        AssignShape(out, 1, (*in)[0], p.op()->name + ": output 1");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([kind](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::RegressionBackward(kind, in[0], in[1], p.GetFloat("grad_scale"), req[0], out[0]);
        if (req[1] != OpReq::kAddTo && req[1] != OpReq::kNull)
          out[1].ZeroFill();
      })
      .add_inplace(1, 0);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "label_grad"}; };
}

const char* kNote =
    "\n\nThe storage type of ``label`` can be ``default`` or ``csr`` in MXNet; here labels are dense. "
    "By default gradients of this loss function are scaled by factor `1/m`, where m is the number of "
    "regression outputs of a training example (label.size / label.shape[0]). The parameter `grad_scale` "
    "can be used to change this scale to `grad_scale/m`.";

[[maybe_unused]] const bool kRegressionRegistered = [] {
  RegisterRegression("LinearRegressionOutput", "_backward_linear_reg_out", RegressionKind::kLinear,
                     WEFT_GPU(cuda::LinearRegressionOutputGpu), WEFT_GPU(cuda::BackwardLinearRegOutGpu),
                     std::string("Computes and optimizes for squared loss during backward propagation.\n"
                                 "Just outputs ``data`` during forward propagation.\n\n"
                                 "If :math:`\\hat{y}_i` is the predicted value of the i-th sample, and :math:`y_i` "
                                 "is the corresponding target value, then the squared loss estimated over "
                                 ":math:`n` samples is defined as\n\n"
                                 ":math:`\\text{SquaredLoss}(\\textbf{Y}, \\hat{\\textbf{Y}} ) = \\frac{1}{n} "
                                 "\\sum_{i=0}^{n-1} \\lVert  \\textbf{y}_i - \\hat{\\textbf{y}}_i  \\rVert_2`") +
                         kNote);
  RegisterRegression("MAERegressionOutput", "_backward_mae_reg_out", RegressionKind::kMAE,
                     WEFT_GPU(cuda::MAERegressionOutputGpu), WEFT_GPU(cuda::BackwardMaeRegOutGpu),
                     std::string("Computes mean absolute error of the input.\n\n"
                                 "MAE is a risk metric corresponding to the expected value of the absolute error. "
                                 "Just outputs ``data`` during forward propagation; the gradient is "
                                 "sign(output - label).") +
                         kNote);
  RegisterRegression("LogisticRegressionOutput", "_backward_logistic_reg_out", RegressionKind::kLogistic,
                     WEFT_GPU(cuda::LogisticRegressionOutputGpu), WEFT_GPU(cuda::BackwardLogisticRegOutGpu),
                     std::string("Applies a logistic function to the input.\n\n"
                                 "The logistic function, also known as the sigmoid function, is computed as "
                                 ":math:`\\frac{1}{1+exp(-\\textbf{x})}`. Commonly, the sigmoid is used to squash "
                                 "the real-valued output of a linear model :math:`wTx+b` into the [0,1] range so "
                                 "that it can be interpreted as a probability. It is suitable for binary "
                                 "classification or probability prediction tasks; the gradient is "
                                 "output - label.") +
                         kNote);
  return true;
}();

}  // namespace
}  // namespace weft
