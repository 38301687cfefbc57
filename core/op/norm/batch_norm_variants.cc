// Two contrib variants of BatchNorm (MXNet 1.x), computed by BatchNorm's own
// kernels (core/op/norm/batch_norm.cc, batch_norm_cpu.cc, norm.cu):
//
// _contrib_SyncBatchNorm: BatchNorm whose batch statistics MXNet averages over
// `ndev` devices of one process (joined by `key`). Weft runs each device's op
// alone, so the statistics are those of the device's own batch -- exactly
// MXNet's result for ndev=1 and for inference (moving statistics), per device
// otherwise. Parameters as MXNet's (eps, momentum, fix_gamma,
// use_global_stats, output_mean_var, ndev, key; no axis: channels are axis 1).
//
// _contrib_BatchNormWithReLU: relu(BatchNorm(...)) fused, with BatchNorm's
// parameters. Its gradient masks the head gradient where the output is not
// positive (_backward_Activation with act_type relu) and hands it to
// _backward_BatchNorm.
//
// Both have BatchNorm's inputs, aux states (moving_mean, moving_var, written
// when training) and outputs (output, mean, inverse std; all visible with
// output_mean_var); BatchNormWithReLU has MXNet's fourth hidden output,
// workspace (data's shape, the parameter dtype), holding the relu mask. Errors
// from BatchNorm's inference are re-raised naming the op.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/norm/batch_norm_variants_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnm {

Params SyncToBatchNormParams(const Params& p) {
  auto b = [](bool v) { return std::string(v ? "True" : "False"); };
  return Params::Parse(OpRegistry::Get()->FindOrThrow("BatchNorm"),
                       {{"eps", ScalarAttr(p.GetFloat("eps"))},
                        {"momentum", ScalarAttr(p.GetFloat("momentum"))},
                        {"fix_gamma", b(p.GetBool("fix_gamma"))},
                        {"use_global_stats", b(p.GetBool("use_global_stats"))},
                        {"output_mean_var", b(p.GetBool("output_mean_var"))}});
}

}  // namespace nnm

namespace {

const OpDef& BatchNorm() { return OpRegistry::Get()->FindOrThrow("BatchNorm"); }

template <typename F>
auto Named(const std::string& op, F f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(e.status(), op + ": " + e.what());
  }
}

void AddCommonParams(OpDef& op) {
  op.add_param("eps", ParamType::kFloat, "0.001",
               "Epsilon to prevent div 0. Must be no less than CUDNN_BN_MIN_EPSILON defined in cudnn.h when using "
               "cudnn (usually 1e-5)")
      .add_param("momentum", ParamType::kFloat, "0.9", "Momentum for moving average")
      .add_param("fix_gamma", ParamType::kBool, "True", "Fix gamma while training")
      .add_param("use_global_stats", ParamType::kBool, "False",
                 "Whether use global moving statistics instead of local batch-norm. This will force change "
                 "batch-norm into a scale shift operator.")
      .add_param("output_mean_var", ParamType::kBool, "False", "Output the mean and inverse std ");
}

// What both variants share with BatchNorm's declaration; `bn_params` turns a
// call's parameters into BatchNorm's. `workspace` adds BatchNormWithReLU's
// fourth hidden output (data's shape, the parameter dtype).
void DeclareLikeBatchNorm(OpDef& op, std::function<Params(const Params&)> bn_params, bool workspace) {
  op.add_input("data").add_input("gamma").add_input("beta").add_input("moving_mean").add_input("moving_var");
  const std::string name = op.name;
  op.set_num_outputs(workspace ? 4 : 3)
      .set_mutate_inputs({3, 4})
      .set_infer_shape([name, bn_params](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        std::vector<Shape> bn_out(out->begin(), out->begin() + 3);
        const bool known = Named(name, [&] { return BatchNorm().infer_shape(bn_params(p), in, &bn_out); });
        std::copy(bn_out.begin(), bn_out.end(), out->begin());
        if (out->size() > 3) AssignShape(out, 3, (*in)[0], name + ": output 'workspace'");
        return known;
      })
      .set_infer_type([name, bn_params](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        std::vector<DType> bn_out(out->begin(), out->begin() + 3);
        const bool known = Named(name, [&] { return BatchNorm().infer_type(bn_params(p), in, &bn_out); });
        std::copy(bn_out.begin(), bn_out.end(), out->begin());
        if (out->size() > 3) AssignType(out, 3, (*out)[1], name + ": output 'workspace'");
        return known;
      });
  op.set_input_var_attrs = [](int input, std::map<std::string, std::string>* attrs) {
    if (input == 3 && !attrs->count("__init__")) (*attrs)["__init__"] = "[\"zero\", {}]";
    if (input == 4 && !attrs->count("__init__")) (*attrs)["__init__"] = "[\"one\", {}]";
  };
  op.num_visible_outputs_fn = [](const Params& p) { return p.GetBool("output_mean_var") ? 3 : 1; };
  op.list_output_names = [workspace](const Params&) {
    std::vector<std::string> n = {"output", "mean", "var"};
    if (workspace) n.push_back("workspace");
    return n;
  };
}

// _backward_BatchNorm on og and the saved statistics; the aux states get none.
std::vector<NodeEntry> BatchNormGrad(GradBuilder& b, const NodeEntry& og) {
  const NodePtr& n = b.fwd();
  const std::vector<NodeEntry>& x = n->inputs;
  const NodePtr g = b.NodeWithAttrs("_backward_BatchNorm",
                                    {og, OutputOf(n, 1), OutputOf(n, 2), x[0], x[1], x[2], x[3], x[4]});
  std::vector<NodeEntry> r(x.size());
  for (uint32_t i = 0; i < 3; ++i) r[i] = OutputOf(g, i);
  return r;
}

[[maybe_unused]] const bool kSyncBatchNormRegistered = [] {
  WEFT_REGISTER_OP(op, "_contrib_SyncBatchNorm").set_compute_gpu(WEFT_GPU(cuda::SyncBatchNormGpu));
  op.describe("Batch normalization, with the batch statistics synchronized across devices in MXNet.\n\n"
              "Normalizes a data batch by mean and variance, and applies a scale ``gamma`` as well as offset "
              "``beta``; see BatchNorm. The channel axis is 1. Weft computes each device's statistics from its "
              "own batch (no cross-device reduction): the same as MXNet with ndev=1 and for inference.");
  AddCommonParams(op);
  op.add_param("ndev", ParamType::kInt, "1", "The count of GPU devices")
      .add_required_param("key", ParamType::kString,
                          "Hash key for synchronization, please set the same hash key for same layer, Block.prefix "
                          "is typically used as in :class:`gluon.nn.contrib.SyncBatchNorm`.");
  DeclareLikeBatchNorm(op, [](const Params& p) {
    WEFT_CHECK(p.GetInt("ndev") >= 1, kInvalidArgument)
        << "_contrib_SyncBatchNorm: parameter 'ndev' must be >= 1, got " << p.GetInt("ndev");
    return nnm::SyncToBatchNormParams(p);
  }, false);
  op.set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      BatchNorm().compute_cpu(ctx, nnm::SyncToBatchNormParams(p), in, req, out);
    })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);
        return BatchNormGrad(b, og[0]);
      });
  return true;
}();

[[maybe_unused]] const bool kBatchNormWithReLURegistered = [] {
  WEFT_REGISTER_OP(op, "_contrib_BatchNormWithReLU").set_compute_gpu(WEFT_GPU(cuda::BatchNormWithReLUGpu));
  op.describe("Batch normalization with ReLU fusion.\n\n"
              "An extended operator of Batch normalization which can be fused with ReLU activation: "
              "out = max(0, BatchNorm(data, gamma, beta, moving_mean, moving_var)), with BatchNorm's parameters.");
  AddCommonParams(op);
  op.add_param("axis", ParamType::kInt, "1", "Specify which shape axis the channel is specified")
      .add_param("cudnn_off", ParamType::kBool, "False", "Do not select CUDNN operator, if available (ignored)")
      .add_optional_param("min_calib_range", ParamType::kFloat,
                          "The minimum scalar value in the form of float32 obtained through calibration "
                          "(quantization only; ignored).")
      .add_optional_param("max_calib_range", ParamType::kFloat,
                          "The maximum scalar value in the form of float32 obtained through calibration "
                          "(quantization only; ignored).");
  // The parameters are BatchNorm's by name, so BatchNorm's code reads them as they are.
  DeclareLikeBatchNorm(op, [](const Params& p) { return p; }, true);
  op.set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      WEFT_CHECK(req[0] != OpReq::kAddTo, kInvalidArgument)
          << "_contrib_BatchNormWithReLU: output 0 cannot be accumulated (req add), as in MXNet";
      const std::vector<TensorView> bn_out(out.begin(), out.begin() + 3);
      BatchNorm().compute_cpu(ctx, p, in, std::vector<OpReq>(req.begin(), req.begin() + 3), bn_out);
      if (req[0] == OpReq::kNull) return;
      WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "_contrib_BatchNormWithReLU", T, {
        using W = nnx_cpu::Acc<T>;  // the workspace's dtype, the parameters': float32 for 16-bit data
        T* y = out[0].ptr<T>();
        W* w = req[3] == OpReq::kNull ? nullptr : out[3].ptr<W>();
        ParallelFor(out[0].Size(), 1, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) {
            const bool pos = static_cast<W>(y[i]) > 0;
            if (!pos) y[i] = static_cast<T>(0.0f);
            if (w != nullptr) w[i] = pos ? W(1) : W(0);  // the relu mask
          }
        });
      })
    })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);
        const NodeEntry masked =
            b("_backward_Activation", {og[0], OutputOf(n, 0)}, {{"act_type", "relu"}});
        return BatchNormGrad(b, masked);
      });
  return true;
}();

}  // namespace
}  // namespace weft
