// GPU kernel of _fused_convolution_bn (core/op/fused/fused_conv_bn.cc): the
// unfused chain from the unfused GPU kernels (Convolution, then BatchNorm in
// place on its output), then one pass adding the addend and applying the
// activation. Same results as the unfused graph on the GPU.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/fused/fused_conv_bn.h"
#include "core/op/fused/fused_elemwise_cpu.h"  // ActKindByName
#include "core/op/fused/fused_nn_gpu.h"

namespace weft {
namespace cuda {
namespace {

const char* kOp = "_fused_convolution_bn";

template <typename T>
void AddAct(const OpContext& ctx, int act, const T* addend, T* y, int64_t n) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    AccT<T> v = static_cast<AccT<T>>(y[i]);
    if (addend != nullptr) v += static_cast<AccT<T>>(addend[i]);
    y[i] = ApplyAct<AccT<T>>(act, v);
  });
}

void FusedConvBn(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  // The fusion pass writes this op into forward graphs only, which never ask to add.
  WEFT_CHECK(req[0] != OpReq::kAddTo, kInvalidArgument) << kOp << ": write mode 'add' is not supported on GPU";
  const fused_conv_bn::Slots s = fused_conv_bn::SlotsOf(p);
  const OpDef& conv = OpRegistry::Get()->FindOrThrow("Convolution");
  const OpDef& bn = OpRegistry::Get()->FindOrThrow("BatchNorm");
  std::vector<TensorView> conv_in = {in[0], in[1]};
  if (s.bias >= 0) conv_in.push_back(in[static_cast<size_t>(s.bias)]);
  conv.compute_gpu(ctx, fused_conv_bn::ConvParams(p), conv_in, {OpReq::kWriteTo}, {out[0]});
  bn.compute_gpu(ctx, fused_conv_bn::BatchNormParams(p),
                 {out[0], in[static_cast<size_t>(s.gamma)], in[static_cast<size_t>(s.beta)],
                  in[static_cast<size_t>(s.moving_mean)], in[static_cast<size_t>(s.moving_var)]},
                 {OpReq::kWriteInplace, req[1], req[2]}, {out[0], out[1], out[2]});
  const std::string act_type = fused_conv_bn::ActType(p);
  const int act = act_type == "none" ? -1 : static_cast<int>(fused_cpu::ActKindByName(act_type, kOp));
  if (act < 0 && s.addend < 0) return;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, kOp, T, {
    AddAct<T>(ctx, act, s.addend >= 0 ? in[static_cast<size_t>(s.addend)].ptr<T>() : nullptr, out[0].ptr<T>(),
              out[0].Size());
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(FusedConvolutionBnGpu, FusedConvBn)  // _fused_convolution_bn

}  // namespace cuda
}  // namespace weft
