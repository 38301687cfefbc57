// IdentityAttachKLSparseReg (MXNet 1.x) and its backward operator.
//
// Regularises the (sigmoid) activations it passes through towards a mean
// activation of sparseness_target: the forward returns data; the backward
// first folds the batch mean of each column into the aux state moving_avg,
// moving_avg = momentum * moving_avg + (1 - momentum) * mean(data, axis=0),
// then returns out_grad + penalty * (-target / moving_avg + (1 - target) /
// (1 - moving_avg)) (the gradient of the KL divergence between the target
// and the mean activation, Hinton's guideTR p. 11), as MXNet does. data is
// (N, D) -- MXNet's layout, seen as rows of its last axis -- and moving_avg is
// (data.shape[1],). _backward_IdentityAttachKLSparseReg takes (out_grad,
// data, moving_avg) and writes moving_avg (mutate_inputs). CPU kernels here,
// GPU kernels in kl_sparse_reg.cu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/common/req_hd.h"
#include "core/op/loss/kl_sparse_reg_gpu.h"
#include "core/op/loss/kl_sparse_reg_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

void AddParams(OpDef& op) {
  op.add_param("sparseness_target", ParamType::kFloat, "0.1", "The sparseness target")
      .add_param("penalty", ParamType::kFloat, "0.001", "The tradeoff parameter for the sparseness penalty")
      .add_param("momentum", ParamType::kFloat, "0.9", "The momentum for running average");
}

void CheckParams(const Params& p) {
  for (const char* name : {"sparseness_target", "momentum"}) {
    const double v = p.GetFloat(name);
    WEFT_CHECK(v >= 0 && v <= 1, kInvalidArgument)
        << p.op()->name << ": parameter '" << name << "' must be in [0, 1], got " << v;
  }
}

// data (N, D, ...) with D its last axis too (MXNet flattens to 2-D and keeps (D,) averages).
bool InferKl(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, size_t data, size_t avg) {
  CheckParams(p);
  const std::string& op = p.op()->name;
  const Shape& d = (*in)[data];
  if (!d.known()) return false;
  WEFT_CHECK(d.ndim() >= 2 && d[1] == d[d.ndim() - 1], kShape)
      << op << ": input 'data' must be (batch, num_hidden) (axis 1 also the last axis), got " << d.ToString();
  AssignShape(in, avg, Shape{d[1]}, op + ": input 'moving_avg'");
  for (size_t i = 0; i < in->size(); ++i)
    if (i != avg) AssignShape(in, i, d, op + ": input '" + nnx::InputName(p, i) + "'");
  AssignShape(out, 0, d, op + ": output");
  return true;
}

[[maybe_unused]] const bool kKlSparseRegRegistered = [] {
  WEFT_REGISTER_OP(fwd, "IdentityAttachKLSparseReg")
                   .set_compute_gpu(WEFT_GPU(cuda::IdentityAttachKLSparseRegGpu));
  fwd.describe("Apply a sparse regularization to the output a sigmoid activation function.\n\n"
               "The forward returns data. The backward updates the auxiliary state moving_avg with the batch mean "
               "of each unit, moving_avg = momentum * moving_avg + (1 - momentum) * mean(data, axis=0), and adds "
               "penalty * (-sparseness_target / moving_avg + (1 - sparseness_target) / (1 - moving_avg)) to the "
               "gradient.")
      .add_input("data")
      .add_input("moving_avg");
  AddParams(fwd);
  fwd.set_mutate_inputs({1})
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return InferKl(p, in, out, 0, 1);
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        if (req[0] == OpReq::kNull) return;
        WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "IdentityAttachKLSparseReg", T, {
          const T* x = in[0].ptr<T>();
          T* y = out[0].ptr<T>();
          nnm::ForEachIndex(out[0].Size(), 1,
                            [&](int64_t e) { nnm::Put(y, e, req[0], static_cast<nnx_cpu::Acc<T>>(x[e])); });
        })
      })
      .add_inplace(0, 0)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_IdentityAttachKLSparseReg", {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_IdentityAttachKLSparseReg")
                   .set_compute_gpu(WEFT_GPU(cuda::BackwardIdentityAttachKLSparseRegGpu));
  bwd.describe("Gradient of IdentityAttachKLSparseReg from (out_grad, data, moving_avg); updates moving_avg "
               "in place, then adds the sparseness penalty to out_grad.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("moving_avg");
  AddParams(bwd);
  bwd.set_mutate_inputs({2})
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return InferKl(p, in, out, 1, 2);
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const nnm::KlArgs a = nnm::KlArgsOf(p, in[1].shape);
        WEFT_NNX_FLOAT_SWITCH(in[1].dtype, "_backward_IdentityAttachKLSparseReg", T, {
          using A = nnx_cpu::Acc<T>;
          const T* gy = in[0].ptr<T>();
          const T* x = in[1].ptr<T>();
          T* avg = in[2].ptr<T>();
          T* gx = out[0].ptr<T>();
          nnm::ForEachIndex(a.cols, a.rows, [&](int64_t j) { nnm::KlUpdateAverage<T, A>(j, a, x, avg); });
          if (req[0] != OpReq::kNull)
            nnm::ForEachIndex(a.rows * a.cols, 2, [&](int64_t e) {
              nnm::Put(gx, e, req[0], static_cast<A>(static_cast<double>(static_cast<A>(gy[e])) +
                                                     nnm::KlPenalty(a, static_cast<double>(static_cast<A>(avg[e % a.cols])))));
            });
        })
      })
      .add_inplace(0, 0);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad"}; };
  return true;
}();

}  // namespace
}  // namespace weft
