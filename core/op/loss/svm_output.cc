// SVMOutput (MXNet 1.x) and _backward_SVMOutput.
//
// A loss layer: the forward returns data; the backward ignores the head
// gradient and returns the (L2 or, with use_linear, L1) one-vs-all hinge loss
// gradient at each row's label (core/op/loss/svm_output_rules.h). data is
// (..., classes) seen as rows of its last axis; label has data's shape
// without the last axis and data's dtype. _backward_SVMOutput takes
// (label, output), as MXNet's backward depends on them, and returns the
// gradients of data and label (zeros). CPU kernels here, GPU kernels in
// svm_output.cu.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/saturating_cast.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/common/req_hd.h"
#include "core/op/loss/svm_output_gpu.h"
#include "core/op/loss/svm_output_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

void AddParams(OpDef& op) {
  op.add_param("margin", ParamType::kFloat, "1", "The loss function penalizes outputs that lie outside this margin. "
                                                 "Default margin is 1.")
      .add_param("regularization_coefficient", ParamType::kFloat, "1",
                 "Regularization parameter for the SVM. This balances the tradeoff between coefficient size and "
                 "error.")
      .add_param("use_linear", ParamType::kBool, "False",
                 "Whether to use L1-SVM objective. L2-SVM objective is used by default.");
}

Shape LabelShape(const Shape& d) {
  Shape l;
  for (int i = 0; i + 1 < d.ndim(); ++i) l.push_back(d[i]);
  return l;
}

bool InferSvm(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, size_t data, size_t label) {
  const std::string& op = p.op()->name;
  const Shape& d = (*in)[data];
  if (!d.known()) return false;
  WEFT_CHECK(d.ndim() >= 1, kShape) << op << ": input 'data' must have at least 1 dim (..., classes), got "
                                    << d.ToString();
  AssignShape(in, label, LabelShape(d), op + ": input 'label' (data's shape without the last axis)");
  AssignShape(out, 0, d, op + ": output 0");
  if (out->size() > 1) AssignShape(out, 1, (*in)[label], op + ": output 1");
  return true;
}

[[maybe_unused]] const bool kSVMOutputRegistered = [] {
  WEFT_REGISTER_OP(fwd, "SVMOutput").set_compute_gpu(WEFT_GPU(cuda::SVMOutputGpu));
  fwd.describe("Computes support vector machine based transformation of the input.\n\n"
               "This tutorial demonstrates using SVM as output layer for classification instead of softmax: "
               "https://github.com/apache/mxnet/tree/v1.x/example/svm_mnist.\n\n"
               "The forward returns data; the backward returns the gradient of the one-vs-all hinge loss "
               "(squared, or linear with use_linear) at the labels, ignoring the head gradient.")
      .add_input("data")
      .add_input("label");
  AddParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return InferSvm(p, in, out, 0, 1);
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        if (req[0] == OpReq::kNull) return;
        WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "SVMOutput", T, {
          const T* x = in[0].ptr<T>();
          T* y = out[0].ptr<T>();
          nnm::ForEachIndex(out[0].Size(), 1,
                            [&](int64_t e) { nnm::Put(y, e, req[0], static_cast<nnx_cpu::Acc<T>>(x[e])); });
        })
      })
      .add_inplace(0, 0)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>&) {
        // A loss: the head gradient is not used (MXNet), the label gets zeros.
        return ViaBackwardOp(n, "_backward_SVMOutput", {n->inputs[1], OutputOf(n, 0)});
      });

  WEFT_REGISTER_OP(bwd, "_backward_SVMOutput").set_compute_gpu(WEFT_GPU(cuda::BackwardSVMOutputGpu));
  bwd.describe("Gradient of SVMOutput from (label, output); the label's gradient is zero.")
      .add_input("label")
      .add_input("output");
  AddParams(bwd);
  bwd.set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return InferSvm(p, in, out, 1, 0);
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const TensorView& o = in[1];
        const nnm::SvmArgs a = nnm::SvmArgsOf(p, o.shape);
        if (req[0] != OpReq::kNull && a.classes > 0) {
          WEFT_NNX_FLOAT_SWITCH(o.dtype, "_backward_SVMOutput", T, {
            using A = nnx_cpu::Acc<T>;
            const T* label = in[0].ptr<T>();
            const T* op = o.ptr<T>();
            T* g = out[0].ptr<T>();
            nnm::ForEachIndex(o.Size(), 2, [&](int64_t e) {
              const int64_t k = SaturatingToInt64(static_cast<double>(static_cast<A>(label[e / a.classes])));  // NaN/Inf labels
              nnm::Put(g, e, req[0], static_cast<A>(nnm::SvmGrad(a, e % a.classes, k, static_cast<double>(static_cast<A>(op[e])))));
            });
          })
        }
        if (req[1] != OpReq::kAddTo && req[1] != OpReq::kNull)
          out[1].ZeroFill();
      })
      .add_inplace(1, 0);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "label_grad"}; };
  return true;
}();

}  // namespace
}  // namespace weft
