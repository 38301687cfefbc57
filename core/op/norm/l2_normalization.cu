// GPU kernels of L2Normalization and _backward_L2Normalization
// (core/op/norm/l2_normalization.cc): one index per normalised vector, the
// arithmetic of l2_normalization_rules.h.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/norm/l2_normalization_gpu.h"

namespace weft {
namespace cuda {
namespace {

void L2Forward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  const nnm::L2Layout l = nnm::L2LayoutOf(p, in[0].shape);
  const OpReq ry = req[0], rn = req[1];
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "L2Normalization", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    T* norm = out[1].ptr<T>();
    Launch(ctx, l.outer * l.inner, [=] WEFT_HD(int64_t k) { nnm::L2NormForwardAt<T, AccT<T>>(k, l, x, ry, y, rn, norm); });
  });
}

void L2Backward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const nnm::L2Layout l = nnm::L2LayoutOf(p, in[0].shape);
  const OpReq r = req[0];
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_L2Normalization", T, {
    const T* gy = in[0].ptr<T>();
    const T* y = in[1].ptr<T>();
    const T* norm = in[2].ptr<T>();
    T* gx = out[0].ptr<T>();
    Launch(ctx, l.outer * l.inner, [=] WEFT_HD(int64_t k) { nnm::L2NormBackwardAt<T, AccT<T>>(k, l, gy, y, norm, r, gx); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(L2NormalizationGpu, L2Forward)  // L2Normalization
WEFT_GPU_KERNEL_EXPORT(BackwardL2NormalizationGpu, L2Backward)  // _backward_L2Normalization

}  // namespace cuda
}  // namespace weft
