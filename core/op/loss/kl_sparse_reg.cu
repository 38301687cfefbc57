// GPU kernels of IdentityAttachKLSparseReg and its backward
// (core/op/loss/kl_sparse_reg.cc): the forward copies data; the backward
// updates the moving average (one index per column), then adds the penalty
// (one index per element), by kl_sparse_reg_rules.h.
#include <vector>

#include "core/op/common/req_hd.h"
#include "core/op/common/tensor_util.cuh"
#include "core/op/loss/kl_sparse_reg_rules.h"

namespace weft {
namespace cuda {
namespace {

void KlForward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  CopyGPU(ctx, in[0], req[0], out[0]);
}

void KlBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nnm::KlArgs a = nnm::KlArgsOf(p, in[1].shape);
  WEFT_GPU_REAL_SWITCH(in[1].dtype, "_backward_IdentityAttachKLSparseReg", T, {
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    T* avg = in[2].ptr<T>();
    T* gx = out[0].ptr<T>();
    Launch(ctx, a.cols, [=] WEFT_HD(int64_t j) { nnm::KlUpdateAverage<T, AccT<T>>(j, a, x, avg); });
    const OpReq r = req[0];
    if (r != OpReq::kNull)
      Launch(ctx, a.rows * a.cols, [=] WEFT_HD(int64_t e) {
        nnm::Put(gx, e, r, static_cast<T>(static_cast<double>(gy[e]) +
                                           nnm::KlPenalty(a, static_cast<double>(avg[e % a.cols]))));
      });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(IdentityAttachKLSparseRegGpu, KlForward)  // IdentityAttachKLSparseReg
WEFT_GPU_KERNEL_EXPORT(BackwardIdentityAttachKLSparseRegGpu, KlBackward)  // _backward_IdentityAttachKLSparseReg

}  // namespace cuda
}  // namespace weft
