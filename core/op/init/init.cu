// GPU kernels of the init ops (core/op/init/init.cc): _zeros, _ones, _full,
// zeros_like, ones_like (_arange, _eye: init_misc.cu). Note [GPU kernel style] in kernel.h.
#include <cmath>

#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

// out[i] = value (or += value for kAddTo), converted to out's dtype.
void FillGPU(const OpContext& ctx, const TensorView& out, OpReq req, double value) {
  if (req == OpReq::kNull) return;
  WEFT_GPU_ALL_SWITCH(out.dtype, "fill", T, {
    T* o = out.ptr<T>();
    const T v = static_cast<T>(value);
    Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) { Assign(o, i, req, v); });
  });
}

void Zeros(const OpContext& ctx, const Params&, const std::vector<TensorView>&, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  FillGPU(ctx, out[0], req[0], 0.0);
}

void Ones(const OpContext& ctx, const Params&, const std::vector<TensorView>&, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  FillGPU(ctx, out[0], req[0], 1.0);
}

void Full(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  FillGPU(ctx, out[0], req[0], p.GetFloat("value"));
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ZerosGpu, Zeros)  // _zeros
WEFT_GPU_KERNEL_EXPORT(OnesGpu, Ones)  // _ones
WEFT_GPU_KERNEL_EXPORT(FullGpu, Full)  // _full
WEFT_GPU_KERNEL_EXPORT(ZerosLikeGpu, Zeros)  // zeros_like
WEFT_GPU_KERNEL_EXPORT(OnesLikeGpu, Ones)  // ones_like

}  // namespace cuda
}  // namespace weft
