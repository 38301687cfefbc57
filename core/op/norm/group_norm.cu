// GPU kernels of GroupNorm and _backward_GroupNorm (core/op/norm/group_norm.cc):
// one index per (sample, group) row, then one per group for the parameter
// gradients, by group_norm_rules.h.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/norm/group_norm_gpu.h"

namespace weft {
namespace cuda {
namespace {

void GroupNormForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nnm::GroupLayout l = nnm::GroupLayoutOf(p, in[0].shape);
  const OpReq ry = req[0], rm = req[1], rs = req[2];
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "GroupNorm", T, {
    const T* x = in[0].ptr<T>();
    const T* g = in[1].ptr<T>();
    const T* b = in[2].ptr<T>();
    T* y = out[0].ptr<T>();
    T* m = out[1].ptr<T>();
    T* s = out[2].ptr<T>();
    Launch(ctx, l.rows, [=] WEFT_HD(int64_t r) { nnm::GroupNormForwardAt<T, AccT<T>>(r, l, x, g, b, ry, y, rm, m, rs, s); });
  });
}

void GroupNormBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nnm::GroupLayout l = nnm::GroupLayoutOf(p, in[1].shape);
  const OpReq rx = req[0], rg = req[1], rb = req[2];
  WEFT_GPU_REAL_SWITCH(in[1].dtype, "_backward_GroupNorm", T, {
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* gamma = in[2].ptr<T>();
    const T* mean = in[3].ptr<T>();
    const T* sd = in[4].ptr<T>();
    T* gx = out[0].ptr<T>();
    T* gg = out[1].ptr<T>();
    T* gb = out[2].ptr<T>();
    // The parameter gradients (one index per group), then the data gradient (one per row).
    if (rg != OpReq::kNull || rb != OpReq::kNull)
      Launch(ctx, l.groups,
             [=] WEFT_HD(int64_t g) { nnm::GroupNormBackwardParamAt<T, AccT<T>>(g, l, gy, x, mean, sd, rg, gg, rb, gb); });
    if (rx != OpReq::kNull)
      Launch(ctx, l.rows,
             [=] WEFT_HD(int64_t r) { nnm::GroupNormBackwardDataAt<T, AccT<T>>(r, l, gy, x, gamma, mean, sd, rx, gx); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(GroupNormGpu, GroupNormForward)  // GroupNorm
WEFT_GPU_KERNEL_EXPORT(BackwardGroupNormGpu, GroupNormBackward)  // _backward_GroupNorm

}  // namespace cuda
}  // namespace weft
