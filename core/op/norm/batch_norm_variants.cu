// GPU kernels of _contrib_SyncBatchNorm and _contrib_BatchNormWithReLU
// (core/op/norm/batch_norm_variants.cc): BatchNorm's GPU kernel (norm.cu), then,
// for BatchNormWithReLU, max(0, y) in place and the relu mask in the hidden
// workspace output, one index per element.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/norm/batch_norm_variants_gpu.h"

namespace weft {
namespace cuda {
namespace {

const OpDef& BatchNorm() { return OpRegistry::Get()->FindOrThrow("BatchNorm"); }

void SyncBatchNorm(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  BatchNorm().compute_gpu(ctx, nnm::SyncToBatchNormParams(p), in, req, out);
}

void BatchNormWithReLU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_CHECK(req[0] != OpReq::kAddTo, kInvalidArgument)
      << "_contrib_BatchNormWithReLU: output 0 cannot be accumulated (req add), as in MXNet";
  const std::vector<TensorView> bn_out(out.begin(), out.begin() + 3);
  BatchNorm().compute_gpu(ctx, p, in, std::vector<OpReq>(req.begin(), req.begin() + 3), bn_out);
  if (req[0] == OpReq::kNull) return;
  const bool mask = req[3] != OpReq::kNull;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_contrib_BatchNormWithReLU", T, {
    T* y = out[0].ptr<T>();
    T* w = out[3].ptr<T>();  // float32/float64 data: the workspace has data's dtype
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      y[i] = y[i] > T(0) ? y[i] : T(0);
      if (mask) w[i] = y[i] > T(0) ? T(1) : T(0);
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(SyncBatchNormGpu, SyncBatchNorm)  // _contrib_SyncBatchNorm
WEFT_GPU_KERNEL_EXPORT(BatchNormWithReLUGpu, BatchNormWithReLU)  // _contrib_BatchNormWithReLU

}  // namespace cuda
}  // namespace weft
