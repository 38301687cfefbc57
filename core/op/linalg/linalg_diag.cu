// GPU kernels of _linalg_sumlogdiag, _linalg_extractdiag, _linalg_makediag,
// _linalg_extracttrian and _linalg_maketrian (declarations and CPU kernels:
// diag.cc): one thread per output element over the maps of diag_rules.h.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/linalg/diag_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_gpu_util.cuh"

namespace weft {
namespace cuda {
namespace {

using linalg_gpu::LastDim;

template <typename T>
void DiagT(int which, const OpContext& ctx, const Params& p, const TensorView& in, OpReq req,
           const TensorView& out) {
  const T* a = in.ptr<T>();
  T* o = out.ptr<T>();
  if (which == 0) {  // sumlogdiag
    const int64_t n = LastDim(in);
    Launch(ctx, out.Size(), [=] WEFT_HD(int64_t b) { Assign(o, b, req, linalg::SumLogDiag(a + b * n * n, n)); });
    return;
  }
  const int64_t k = p.GetInt("offset");
  if (which == 1) {  // extractdiag
    const int64_t n = LastDim(in);
    Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) { Assign(o, i, req, a[linalg::DiagElement(k, n, i)]); });
  } else if (which == 2) {  // makediag
    const int64_t n = LastDim(out);
    Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
      const int64_t s = linalg::MakeDiagSource(k, n, i);
      Assign(o, i, req, s < 0 ? T(0) : a[s]);
    });
  } else if (which == 3) {  // extracttrian: one thread per input element, each packed entry written once
    const int64_t n = LastDim(in);
    const bool lower = p.GetBool("lower");
    Launch(ctx, in.Size(), [=] WEFT_HD(int64_t i) {
      const int64_t t = linalg::TrianElement(lower, k, n, i);
      if (t >= 0) Assign(o, t, req, a[i]);
    });
  } else {  // maketrian
    const int64_t n = LastDim(out);
    const bool lower = p.GetBool("lower");
    Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
      const int64_t t = linalg::TrianElement(lower, k, n, i);
      Assign(o, i, req, t < 0 ? T(0) : a[t]);
    });
  }
}

template <int kWhich>
void DiagGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_F32_F64_SWITCH(out[0].dtype, p.op()->name.c_str(), T, DiagT<T>(kWhich, ctx, p, in[0], req[0], out[0]);)
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(LinalgSumLogDiagGpu, DiagGpu<0>)
WEFT_GPU_KERNEL_EXPORT(LinalgExtractDiagGpu, DiagGpu<1>)
WEFT_GPU_KERNEL_EXPORT(LinalgMakeDiagGpu, DiagGpu<2>)
WEFT_GPU_KERNEL_EXPORT(LinalgExtractTrianGpu, DiagGpu<3>)
WEFT_GPU_KERNEL_EXPORT(LinalgMakeTrianGpu, DiagGpu<4>)

}  // namespace cuda
}  // namespace weft
