// GPU kernels of the NumPy bit ops (bitwise.cc): one thread per output
// element over the CPU's collapsed broadcast plan (broadcast_plan_gpu.h),
// running bitwise_rules.h as the CPU kernels do. The names are the file's own:
// a CUDA unity build compiles the family's .cu files as one unit.
#include <type_traits>
#include <vector>

#include "core/base/saturating_cast.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/bitwise_gpu.h"
#include "core/op/elemwise/bitwise_rules.h"
#include "core/op/elemwise/broadcast_plan_gpu.h"

namespace weft {
namespace cuda {
namespace {

using tensor::BitwiseKind;

void BitwiseBroadcast(const OpContext& ctx, const char* op, BitwiseKind kind, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int k = static_cast<int>(kind);
  WEFT_BITWISE_SWITCH(out[0].dtype, op, T, {
    LaunchBroadcast<T, T>(ctx, op, in, req[0], out[0],
                          [=] WEFT_HD(T a, T b) { return tensor::BitwiseApply<T>(k, a, b); });
  });
}

void BitwiseWithScalar(const OpContext& ctx, const char* op, BitwiseKind kind, const Params& p,
                       const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                       const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const double scalar = p.GetFloat("scalar");
  const int k = static_cast<int>(kind);
  const OpReq r = req[0];
  WEFT_BITWISE_SWITCH(out[0].dtype, op, T, {
    // as the CPU kernel (bitwise.cc BitwiseScalar): nonzero for bool, else DType(scalar) saturated
    const T s = std::is_same<T, bool>::value ? static_cast<T>(scalar != 0)
                                             : static_cast<T>(SaturatingToInt64(scalar));
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, tensor::BitwiseApply<T>(k, a[i], s)); });
  });
}

void BitwiseNotKernel(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const OpReq r = req[0];
  WEFT_BITWISE_SWITCH(out[0].dtype, "_npi_bitwise_not", T, {
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, tensor::BitwiseNot<T>(a[i])); });
  });
}

#define WEFT_BITWISE_GPU(fn, body)                                                                        \
  void fn(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,                       \
          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                            \
    (void)p;                                                                                              \
    body;                                                                                                 \
  }
WEFT_BITWISE_GPU(BitwiseAndKernel, BitwiseBroadcast(ctx, "_npi_bitwise_and", BitwiseKind::kAnd, in, req, out))
WEFT_BITWISE_GPU(BitwiseOrKernel, BitwiseBroadcast(ctx, "_npi_bitwise_or", BitwiseKind::kOr, in, req, out))
WEFT_BITWISE_GPU(BitwiseXorKernel, BitwiseBroadcast(ctx, "_npi_bitwise_xor", BitwiseKind::kXor, in, req, out))
WEFT_BITWISE_GPU(BitwiseAndScalarKernel,
                 BitwiseWithScalar(ctx, "_npi_bitwise_and_scalar", BitwiseKind::kAnd, p, in, req, out))
WEFT_BITWISE_GPU(BitwiseOrScalarKernel,
                 BitwiseWithScalar(ctx, "_npi_bitwise_or_scalar", BitwiseKind::kOr, p, in, req, out))
WEFT_BITWISE_GPU(BitwiseXorScalarKernel,
                 BitwiseWithScalar(ctx, "_npi_bitwise_xor_scalar", BitwiseKind::kXor, p, in, req, out))
#undef WEFT_BITWISE_GPU

}  // namespace

WEFT_GPU_KERNEL_EXPORT(BitwiseAndGpu, BitwiseAndKernel)
WEFT_GPU_KERNEL_EXPORT(BitwiseOrGpu, BitwiseOrKernel)
WEFT_GPU_KERNEL_EXPORT(BitwiseXorGpu, BitwiseXorKernel)
WEFT_GPU_KERNEL_EXPORT(BitwiseAndScalarGpu, BitwiseAndScalarKernel)
WEFT_GPU_KERNEL_EXPORT(BitwiseOrScalarGpu, BitwiseOrScalarKernel)
WEFT_GPU_KERNEL_EXPORT(BitwiseXorScalarGpu, BitwiseXorScalarKernel)
WEFT_GPU_KERNEL_EXPORT(BitwiseNotGpu, BitwiseNotKernel)

}  // namespace cuda
}  // namespace weft
