// GPU kernels of Correlation and _backward_Correlation: the rule of
// correlation_rules.h, one index per output / input element.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/correlation_rules.h"

namespace weft {
namespace cuda {
namespace {

void Corr(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  const spatial::CorrGeom g = spatial::CorrGeomOf(p, "Correlation", in[0].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "Correlation", T, {
    const T* a = in[0].ptr<T>();
    const T* b = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    T* t1 = out[1].ptr<T>();
    T* t2 = out[2].ptr<T>();
    const OpReq r = req[0];
    if (r != OpReq::kNull)
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::CorrForwardAt<T, AccT<T>>(g, a, b, r, y, i); });
    if (req[1] != OpReq::kNull)
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { spatial::CorrPaddedAt<T, AccT<T>>(g, a, t1, i); });
    if (req[2] != OpReq::kNull)
      Launch(ctx, out[2].Size(), [=] WEFT_HD(int64_t i) { spatial::CorrPaddedAt<T, AccT<T>>(g, b, t2, i); });
  });
}

void CorrBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::CorrGeom g = spatial::CorrGeomOf(p, "_backward_Correlation", in[1].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_Correlation", T, {
    const T* gy = in[0].ptr<T>();
    const T* a = in[1].ptr<T>();
    const T* b = in[2].ptr<T>();
    for (int k = 0; k < 2; ++k) {
      if (req[static_cast<size_t>(k)] == OpReq::kNull) continue;
      T* gx = out[static_cast<size_t>(k)].ptr<T>();
      const OpReq r = req[static_cast<size_t>(k)];
      Launch(ctx, out[static_cast<size_t>(k)].Size(),
             [=] WEFT_HD(int64_t i) { spatial::CorrBackwardAt<T, AccT<T>>(g, gy, a, b, k, r, gx, i); });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(CorrelationGpu, Corr)                  // Correlation
WEFT_GPU_KERNEL_EXPORT(CorrelationBackwardGpu, CorrBackward)  // _backward_Correlation

}  // namespace cuda
}  // namespace weft
