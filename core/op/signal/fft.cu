// GPU kernels of _contrib_fft and _contrib_ifft (declarations and CPU kernels:
// fft.cc): one thread per output entry over fft_rules.h's sums. cuFFT would be
// the production path.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/signal/fft_rules.h"
#include "core/op/signal/signal_gpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename T, bool kInverse>
void FftT(const OpContext& ctx, const TensorView& x, OpReq req, const TensorView& out) {
  const int64_t d = kInverse ? x.shape[x.ndim() - 1] / 2 : x.shape[x.ndim() - 1];
  const T* a = x.ptr<T>();
  T* o = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    Assign(o, i, req, kInverse ? signal::IfftEntry(a, d, i) : signal::FftEntry(a, d, i));
  });
}

template <bool kInverse>
void Fft(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, FftT<T, kInverse>(ctx, in[0], req[0], out[0]);)
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ContribFftGpu, Fft<false>)
WEFT_GPU_KERNEL_EXPORT(ContribIfftGpu, Fft<true>)

}  // namespace cuda
}  // namespace weft
