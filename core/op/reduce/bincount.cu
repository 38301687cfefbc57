// GPU kernel of _npi_bincount: one thread per bin sums the data's matches (no
// atomics: every bin has one writer), in the CPU's order (bincount_rules.h).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/reduce/bincount_rules.h"
#include "core/op/reduce/bincount_gpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename I>
void Bins(const OpContext& ctx, const I* data, int64_t n, const TensorView* weights, OpReq r, const TensorView& out) {
  const int64_t nb = out.Size();
  if (weights == nullptr) {
    int64_t* y = out.ptr<int64_t>();
    Launch(ctx, nb, [=] WEFT_HD(int64_t b) {
      Assign(y, b, r, static_cast<int64_t>(tensor::BinSum<I, float>(b, data, nullptr, n)));
    });
    return;
  }
  WEFT_GPU_ALL_SWITCH(out.dtype, "_npi_bincount", W, {
    const W* w = weights->ptr<W>();
    W* y = out.ptr<W>();
    Launch(ctx, nb, [=] WEFT_HD(int64_t b) { Assign(y, b, r, static_cast<W>(tensor::BinSum(b, data, w, n))); });
  });
}

void BincountForward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const TensorView* weights = in.size() > 1 ? &in[1] : nullptr;
  switch (in[0].dtype) {
    case DType::kUint8: Bins(ctx, in[0].ptr<uint8_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kInt8: Bins(ctx, in[0].ptr<int8_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kInt32: Bins(ctx, in[0].ptr<int32_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kInt64: Bins(ctx, in[0].ptr<int64_t>(), in[0].Size(), weights, req[0], out[0]); break;
    case DType::kBool: Bins(ctx, in[0].ptr<bool>(), in[0].Size(), weights, req[0], out[0]); break;
    default: UnsupportedDType("_npi_bincount", in[0].dtype);
  }
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(BincountGpu, BincountForward)

}  // namespace cuda
}  // namespace weft
