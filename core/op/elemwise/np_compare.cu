// GPU kernels of the NumPy comparisons and predicates (np_compare.cc): one
// thread per output element over the CPU's collapsed broadcast plan
// (broadcast_plan_gpu.h), running np_compare_rules.h as the CPU kernels do.
// The names are the file's own: a CUDA unity build compiles the family's .cu
// files as one unit.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/broadcast_plan_gpu.h"
#include "core/op/elemwise/np_compare_gpu.h"
#include "core/op/elemwise/np_compare_rules.h"

namespace weft {
namespace cuda {
namespace {

using tensor::CompareKind;
using tensor::PredicateKind;

void NpCompareBroadcast(const OpContext& ctx, const char* op, CompareKind kind, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int k = static_cast<int>(kind);
  WEFT_GPU_ALL_SWITCH(in[0].dtype, op, T, {
    LaunchBroadcast<T, bool>(ctx, op, in, req[0], out[0],
                             [=] WEFT_HD(T a, T b) { return tensor::CompareApply<T>(k, a, b); });
  });
}

void NpCompareWithScalar(const OpContext& ctx, const char* op, CompareKind kind, const Params& p,
                         const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                         const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const double scalar = p.GetFloat("scalar");
  const int k = static_cast<int>(kind);
  const OpReq r = req[0];
  bool* o = out[0].ptr<bool>();
  const bool in_double = tensor::CompareScalarInDouble(in[0].dtype, p.GetBool("is_int"));
  WEFT_GPU_ALL_SWITCH(in[0].dtype, op, T, {
    const T s = tensor::ScalarAsDType<T>(scalar);
    const T* a = static_cast<const T*>(in[0].data);
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      nnm::Put(o, i, r, in_double ? tensor::CompareApply<double>(k, static_cast<double>(a[i]), scalar)
                                  : tensor::CompareApply<T>(k, a[i], s));
    });
  });
}

void NpPredicate(const OpContext& ctx, const char* op, PredicateKind kind, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int k = static_cast<int>(kind);
  const OpReq r = req[0];
  bool* o = out[0].ptr<bool>();
  WEFT_GPU_ALL_SWITCH(in[0].dtype, op, T, {
    const T* a = static_cast<const T*>(in[0].data);
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, tensor::PredicateApply<T>(k, a[i])); });
  });
}

#define WEFT_NP_COMPARE_GPU(fn, body)                                                                     \
  void fn(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,                       \
          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                            \
    (void)p;                                                                                              \
    body;                                                                                                 \
  }
WEFT_NP_COMPARE_GPU(NpEqualKernel, NpCompareBroadcast(ctx, "_npi_equal", CompareKind::kEq, in, req, out))
WEFT_NP_COMPARE_GPU(NpNotEqualKernel, NpCompareBroadcast(ctx, "_npi_not_equal", CompareKind::kNe, in, req, out))
WEFT_NP_COMPARE_GPU(NpGreaterKernel, NpCompareBroadcast(ctx, "_npi_greater", CompareKind::kGt, in, req, out))
WEFT_NP_COMPARE_GPU(NpGreaterEqualKernel,
                    NpCompareBroadcast(ctx, "_npi_greater_equal", CompareKind::kGe, in, req, out))
WEFT_NP_COMPARE_GPU(NpLessKernel, NpCompareBroadcast(ctx, "_npi_less", CompareKind::kLt, in, req, out))
WEFT_NP_COMPARE_GPU(NpLessEqualKernel, NpCompareBroadcast(ctx, "_npi_less_equal", CompareKind::kLe, in, req, out))
WEFT_NP_COMPARE_GPU(NpEqualScalarKernel,
                    NpCompareWithScalar(ctx, "_npi_equal_scalar", CompareKind::kEq, p, in, req, out))
WEFT_NP_COMPARE_GPU(NpNotEqualScalarKernel,
                    NpCompareWithScalar(ctx, "_npi_not_equal_scalar", CompareKind::kNe, p, in, req, out))
WEFT_NP_COMPARE_GPU(NpGreaterScalarKernel,
                    NpCompareWithScalar(ctx, "_npi_greater_scalar", CompareKind::kGt, p, in, req, out))
WEFT_NP_COMPARE_GPU(NpGreaterEqualScalarKernel,
                    NpCompareWithScalar(ctx, "_npi_greater_equal_scalar", CompareKind::kGe, p, in, req, out))
WEFT_NP_COMPARE_GPU(NpLessScalarKernel,
                    NpCompareWithScalar(ctx, "_npi_less_scalar", CompareKind::kLt, p, in, req, out))
WEFT_NP_COMPARE_GPU(NpLessEqualScalarKernel,
                    NpCompareWithScalar(ctx, "_npi_less_equal_scalar", CompareKind::kLe, p, in, req, out))
WEFT_NP_COMPARE_GPU(NpIsNanKernel, NpPredicate(ctx, "_npi_isnan", PredicateKind::kIsNan, in, req, out))
WEFT_NP_COMPARE_GPU(NpIsInfKernel, NpPredicate(ctx, "_npi_isinf", PredicateKind::kIsInf, in, req, out))
WEFT_NP_COMPARE_GPU(NpIsFiniteKernel, NpPredicate(ctx, "_npi_isfinite", PredicateKind::kIsFinite, in, req, out))
WEFT_NP_COMPARE_GPU(NpIsPosInfKernel, NpPredicate(ctx, "_npi_isposinf", PredicateKind::kIsPosInf, in, req, out))
WEFT_NP_COMPARE_GPU(NpIsNegInfKernel, NpPredicate(ctx, "_npi_isneginf", PredicateKind::kIsNegInf, in, req, out))
WEFT_NP_COMPARE_GPU(NpLogicalNotKernel,
                    NpPredicate(ctx, "_npi_logical_not", PredicateKind::kLogicalNot, in, req, out))
#undef WEFT_NP_COMPARE_GPU

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpEqualGpu, NpEqualKernel)
WEFT_GPU_KERNEL_EXPORT(NpNotEqualGpu, NpNotEqualKernel)
WEFT_GPU_KERNEL_EXPORT(NpGreaterGpu, NpGreaterKernel)
WEFT_GPU_KERNEL_EXPORT(NpGreaterEqualGpu, NpGreaterEqualKernel)
WEFT_GPU_KERNEL_EXPORT(NpLessGpu, NpLessKernel)
WEFT_GPU_KERNEL_EXPORT(NpLessEqualGpu, NpLessEqualKernel)
WEFT_GPU_KERNEL_EXPORT(NpEqualScalarGpu, NpEqualScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpNotEqualScalarGpu, NpNotEqualScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpGreaterScalarGpu, NpGreaterScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpGreaterEqualScalarGpu, NpGreaterEqualScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpLessScalarGpu, NpLessScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpLessEqualScalarGpu, NpLessEqualScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpIsNanGpu, NpIsNanKernel)
WEFT_GPU_KERNEL_EXPORT(NpIsInfGpu, NpIsInfKernel)
WEFT_GPU_KERNEL_EXPORT(NpIsFiniteGpu, NpIsFiniteKernel)
WEFT_GPU_KERNEL_EXPORT(NpIsPosInfGpu, NpIsPosInfKernel)
WEFT_GPU_KERNEL_EXPORT(NpIsNegInfGpu, NpIsNegInfKernel)
WEFT_GPU_KERNEL_EXPORT(NpLogicalNotGpu, NpLogicalNotKernel)

}  // namespace cuda
}  // namespace weft
