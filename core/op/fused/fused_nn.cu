// GPU kernels of the layer + activation operators written by the fusion pass
// (core/op/fused/fused_nn.cc): _fused_fully_connected_act and
// _fused_convolution_act. The layer's GEMMs, then one epilogue kernel that adds
// the bias and applies the activation (the convolution's own epilogue does it,
// Note [GPU convolution layout] in convolution.cu). Same arithmetic as the CPU
// kernels of core/op/fused/fused_nn_cpu.cc: bias added in T, activation in T.
#include <vector>

#include "core/op/fused/fused_elemwise_cpu.h"  // ActKindByName
#include "core/op/common/gpu_kernel.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/layer/layer_rules.h"

namespace weft {
namespace cuda {
namespace {

// y (req)= act(x w^T + b): the GEMM into y (or, for kAddTo, into scratch),
// then t[r, j] + b[j] through the activation.
template <typename T>
void FCActT(const OpContext& ctx, const nn_cpu::FCGeom& g, int act, const T* x, const T* w, const T* b, OpReq req,
            T* y) {
  T* t = req == OpReq::kAddTo ? static_cast<T*>(Scratch(ctx, sizeof(T) * static_cast<size_t>(g.rows * g.hidden))) : y;
  DenseGemm(ctx, false, true, g.rows, g.hidden, g.in_dim, x, g.in_dim, w, g.in_dim, T(0), t, g.hidden);
  const int64_t hidden = g.hidden;
  Launch(ctx, g.rows * hidden, [=] WEFT_HD(int64_t i) {
    AccT<T> v = static_cast<AccT<T>>(t[i]);
    if (b != nullptr) v += static_cast<AccT<T>>(b[i % hidden]);
    Assign(y, i, req, ApplyAct<AccT<T>>(act, v));
  });
}

void FusedFCAct(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const nn_cpu::FCGeom g = nn::FCGeometry(p, in[0].shape);
  const bool bias = !p.GetBool("no_bias") && in.size() > 2;
  const int act = static_cast<int>(fused_cpu::ActKindByName(p.GetString("act_type"), "_fused_fully_connected_act"));
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_fused_fully_connected_act", T, {
    FCActT<T>(ctx, g, act, in[0].ptr<T>(), in[1].ptr<T>(), bias ? in[2].ptr<T>() : nullptr, req[0],
              out[0].ptr<T>());
  });
}

void FusedConvAct(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int act = static_cast<int>(fused_cpu::ActKindByName(p.GetString("act_type"), "_fused_convolution_act"));
  ConvForwardGPU(ctx, nn::ConvGeometry(p, in[0].shape), in[0], in[1], in.size() > 2 ? &in[2] : nullptr, act, req[0],
                 out[0]);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(FusedFullyConnectedActGpu, FusedFCAct)  // _fused_fully_connected_act
WEFT_GPU_KERNEL_EXPORT(FusedConvolutionActGpu, FusedConvAct)  // _fused_convolution_act

}  // namespace cuda
}  // namespace weft
