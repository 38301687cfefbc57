// GPU kernels of the NumPy binary functions (np_binary_math.cc): one thread per
// output element over the CPU's collapsed broadcast plan (broadcast_plan_gpu.h),
// running np_binary_math_rules.h as the CPU kernels do. The names are the
// file's own: a CUDA unity build compiles the family's .cu files as one unit.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/half_hd.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/broadcast_plan_gpu.h"
#include "core/op/elemwise/np_binary_math_gpu.h"
#include "core/op/elemwise/np_binary_math_rules.h"
#include "core/op/elemwise/np_compare_rules.h"

namespace weft {
namespace cuda {
namespace {

using tensor::NpMathKind;

// Every dtype but bool (np_binary_math.cc refuses bool at type inference).
#define WEFT_GPU_NP_MATH_SWITCH(dt, op, T, ...)                                  \
  switch (dt) {                                                                 \
    case DType::kFloat32: { using T = float; __VA_ARGS__ break; }               \
    case DType::kFloat64: { using T = double; __VA_ARGS__ break; }              \
    case DType::kFloat16: { using T = gpu_half; __VA_ARGS__ break; }            \
    case DType::kBFloat16: { using T = gpu_bf16; __VA_ARGS__ break; }           \
    case DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }               \
    case DType::kInt8: { using T = int8_t; __VA_ARGS__ break; }                 \
    case DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }               \
    case DType::kInt64: { using T = int64_t; __VA_ARGS__ break; }               \
    default: UnsupportedDType(op, dt);                                          \
  }

void NpMathBroadcast(const OpContext& ctx, const char* op, NpMathKind kind, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int k = static_cast<int>(kind);
  WEFT_GPU_NP_MATH_SWITCH(out[0].dtype, op, T, {
    using C = tensor::NpMathCompute<T>;
    LaunchBroadcast<T, T>(ctx, op, in, req[0], out[0], [=] WEFT_HD(T a, T b) {
      return tensor::NpMathApply<C>(k, static_cast<C>(a), static_cast<C>(b));
    });
  });
}

void NpMathWithScalar(const OpContext& ctx, const char* op, NpMathKind kind, bool reversed, const Params& p,
                      const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                      const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const double scalar = p.GetFloat("scalar");
  const int k = static_cast<int>(kind);
  const OpReq r = req[0];
  const bool to_double = out[0].dtype != in[0].dtype;  // an integer x with is_int=False: float64 out
  WEFT_GPU_NP_MATH_SWITCH(in[0].dtype, op, T, {
    using C = tensor::NpMathCompute<T>;
    const T* a = static_cast<const T*>(in[0].data);
    if (to_double) {
      double* o = static_cast<double*>(out[0].data);
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
        const double x = static_cast<double>(a[i]);
        nnm::Put(o, i, r, reversed ? tensor::NpMathApply<double>(k, scalar, x) : tensor::NpMathApply<double>(k, x, scalar));
      });
    } else {
      const C s = static_cast<C>(tensor::ScalarAsDType<T>(scalar));
      T* o = static_cast<T*>(out[0].data);
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
        const C x = static_cast<C>(a[i]);
        nnm::Put(o, i, r, reversed ? tensor::NpMathApply<C>(k, s, x) : tensor::NpMathApply<C>(k, x, s));
      });
    }
  });
}

#undef WEFT_GPU_NP_MATH_SWITCH

#define WEFT_NP_MATH_GPU(fn, body)                                                                        \
  void fn(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,                       \
          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                            \
    (void)p;                                                                                              \
    body;                                                                                                 \
  }
WEFT_NP_MATH_GPU(NpArctan2Kernel, NpMathBroadcast(ctx, "_npi_arctan2", NpMathKind::kArctan2, in, req, out))
WEFT_NP_MATH_GPU(NpCopysignKernel, NpMathBroadcast(ctx, "_npi_copysign", NpMathKind::kCopysign, in, req, out))
WEFT_NP_MATH_GPU(NpLdexpKernel, NpMathBroadcast(ctx, "_npi_ldexp", NpMathKind::kLdexp, in, req, out))
WEFT_NP_MATH_GPU(NpLcmKernel, NpMathBroadcast(ctx, "_npi_lcm", NpMathKind::kLcm, in, req, out))
WEFT_NP_MATH_GPU(NpArctan2ScalarKernel,
                 NpMathWithScalar(ctx, "_npi_arctan2_scalar", NpMathKind::kArctan2, false, p, in, req, out))
WEFT_NP_MATH_GPU(NpRArctan2ScalarKernel,
                 NpMathWithScalar(ctx, "_npi_rarctan2_scalar", NpMathKind::kArctan2, true, p, in, req, out))
WEFT_NP_MATH_GPU(NpCopysignScalarKernel,
                 NpMathWithScalar(ctx, "_npi_copysign_scalar", NpMathKind::kCopysign, false, p, in, req, out))
WEFT_NP_MATH_GPU(NpRCopysignScalarKernel,
                 NpMathWithScalar(ctx, "_npi_rcopysign_scalar", NpMathKind::kCopysign, true, p, in, req, out))
WEFT_NP_MATH_GPU(NpLdexpScalarKernel,
                 NpMathWithScalar(ctx, "_npi_ldexp_scalar", NpMathKind::kLdexp, false, p, in, req, out))
WEFT_NP_MATH_GPU(NpRLdexpScalarKernel,
                 NpMathWithScalar(ctx, "_npi_rldexp_scalar", NpMathKind::kLdexp, true, p, in, req, out))
WEFT_NP_MATH_GPU(NpLcmScalarKernel,
                 NpMathWithScalar(ctx, "_npi_lcm_scalar", NpMathKind::kLcm, false, p, in, req, out))
#undef WEFT_NP_MATH_GPU

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpArctan2Gpu, NpArctan2Kernel)
WEFT_GPU_KERNEL_EXPORT(NpArctan2ScalarGpu, NpArctan2ScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpRArctan2ScalarGpu, NpRArctan2ScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpCopysignGpu, NpCopysignKernel)
WEFT_GPU_KERNEL_EXPORT(NpCopysignScalarGpu, NpCopysignScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpRCopysignScalarGpu, NpRCopysignScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpLdexpGpu, NpLdexpKernel)
WEFT_GPU_KERNEL_EXPORT(NpLdexpScalarGpu, NpLdexpScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpRLdexpScalarGpu, NpRLdexpScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpLcmGpu, NpLcmKernel)
WEFT_GPU_KERNEL_EXPORT(NpLcmScalarGpu, NpLcmScalarKernel)

}  // namespace cuda
}  // namespace weft
