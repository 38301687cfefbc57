// GPU kernels of CTCLoss and _backward_ctc_loss (core/op/loss/ctc_loss.cc): one
// index per sequence runs the recursion of ctc_loss_rules.h over its own slice
// of scratch memory; the backward scales the saved gradient by each
// sequence's head gradient, one index per element.
#include <vector>

#include "core/op/common/tensor_util.cuh"
#include "core/op/loss/ctc_loss_gpu.h"

namespace weft {
namespace cuda {
namespace {

void CtcForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nnm::CtcGeom g = nnm::CtcGeomOf(p, in[0].shape, in[1].shape);
  const bool dl = p.GetBool("use_data_lengths"), ll = p.GetBool("use_label_lengths");
  const size_t nlab = static_cast<size_t>(in[1].Size() > 0 ? in[1].Size() : 1);
  const std::vector<void*> parts = ScratchPieces(
      ctx, {nlab * sizeof(double), static_cast<size_t>(g.N) * sizeof(double) * 2,
            static_cast<size_t>(g.N * g.Work()) * sizeof(double)});
  double* labels = static_cast<double*>(parts[0]);
  double* lens = static_cast<double*>(parts[1]);
  double* work = static_cast<double*>(parts[2]);
  ValuesToDoubleGPU(ctx, in[1], labels);
  size_t next = 2;
  const double* data_len = nullptr;
  const double* label_len = nullptr;
  if (dl) {
    ValuesToDoubleGPU(ctx, in[next++], lens);
    data_len = lens;
  }
  if (ll) {
    ValuesToDoubleGPU(ctx, in[next++], lens + g.N);
    label_len = lens + g.N;
  }
  const OpReq rl = req[0], rg = req[1];
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "CTCLoss", T, {
    const T* x = in[0].ptr<T>();
    T* loss = out[0].ptr<T>();
    T* grad = out[1].ptr<T>();
    Launch(ctx, g.N, [=] WEFT_HD(int64_t b) {
      nnm::CtcSequence<T, AccT<T>>(b, g, x, labels, data_len, label_len, work, rl, loss, rg, grad);
    });
  });
}

void CtcBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const TensorView& grad = in[1];
  const int64_t N = grad.shape[1], C = grad.shape[2];
  WEFT_GPU_REAL_SWITCH(grad.dtype, "_backward_ctc_loss", T, {
    const T* og = in[0].ptr<T>();
    const T* gp = grad.ptr<T>();
    T* gx = out[0].ptr<T>();
    const OpReq r = req[0];
    if (r != OpReq::kNull)
      Launch(ctx, grad.Size(), [=] WEFT_HD(int64_t e) { Assign(gx, e, r, static_cast<T>(gp[e] * og[(e / C) % N])); });
  });
  for (size_t i = 1; i < out.size(); ++i)
    if (req[i] != OpReq::kNull && req[i] != OpReq::kAddTo && out[i].Size() > 0)
      gpu::MemsetAsync(out[i].data, 0, static_cast<size_t>(out[i].Size()) * DTypeSize(out[i].dtype), StreamOf(ctx));
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(CTCLossGpu, CtcForward)  // CTCLoss
WEFT_GPU_KERNEL_EXPORT(BackwardCTCLossGpu, CtcBackward)  // _backward_ctc_loss

}  // namespace cuda
}  // namespace weft
