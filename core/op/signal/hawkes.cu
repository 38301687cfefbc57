// GPU kernels of _contrib_hawkesll and _contrib_backward_hawkesll
// (declarations and CPU kernels: hawkes.cc): one thread per sample over
// hawkes_rules.h's recursions, then one thread per mark for the sums of the
// alpha and beta gradients over the samples. Marks outside [0, K) are not
// checked here (the CPU kernels reject them).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/linalg/linalg_gpu_util.cuh"
#include "core/op/signal/hawkes_rules.h"
#include "core/op/signal/signal_gpu.h"

namespace weft {
namespace cuda {
namespace {

using linalg_gpu::ScratchPlan;

template <typename T>
void ForwardT(const OpContext& ctx, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  const signal::HawkesInputs<T> h = signal::HawkesInputsOf<T>(in, 0);
  const int64_t N = in[4].shape[0], K = h.K;
  ScratchPlan plan;
  const size_t at = plan.Add(sizeof(double) * static_cast<size_t>(2 * N * K));
  plan.Allocate(ctx);
  double* buf = plan.At<double>(at);
  T* ll = out[0].ptr<T>();
  T* st = out[1].ptr<T>();
  const OpReq r0 = req[0], r1 = req[1];
  Launch(ctx, N, [=] WEFT_HD(int64_t i) {
    double* phi = buf + 2 * i * K;
    const double v = signal::HawkesLogLike(h, i, phi, phi + K);
    if (r0 != OpReq::kNull) Assign(ll, i, r0, static_cast<T>(v));
    if (r1 != OpReq::kNull)
      for (int64_t k = 0; k < K; ++k) Assign(st, i * K + k, r1, static_cast<T>(phi[k]));
  });
}

template <typename T>
void BackwardT(const OpContext& ctx, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  const signal::HawkesInputs<T> h = signal::HawkesInputsOf<T>(in, 2);
  const int64_t N = in[6].shape[0], K = h.K;
  ScratchPlan plan;
  const size_t at = plan.Add(sizeof(double) * static_cast<size_t>(6 * N * K));
  plan.Allocate(ctx);
  double* buf = plan.At<double>(at);  // per sample: phi, dphi, last, gm, ga, gb
  const T* g = in[0].ptr<T>();
  Launch(ctx, N, [=] WEFT_HD(int64_t i) {
    double* b = buf + 6 * i * K;
    signal::HawkesGrad(h, i, static_cast<double>(g[i]), b, b + K, b + 2 * K, b + 3 * K, b + 4 * K, b + 5 * K);
  });
  T* dmu = out[0].ptr<T>();
  T* da = out[1].ptr<T>();
  T* db = out[2].ptr<T>();
  const OpReq r0 = req[0], r1 = req[1], r2 = req[2];
  Launch(ctx, N * K, [=] WEFT_HD(int64_t t) {
    if (r0 != OpReq::kNull) Assign(dmu, t, r0, static_cast<T>(buf[6 * (t / K) * K + 3 * K + t % K]));
  });
  Launch(ctx, K, [=] WEFT_HD(int64_t k) {
    double sa = 0, sb = 0;
    for (int64_t i = 0; i < N; ++i) {
      sa += buf[6 * i * K + 4 * K + k];
      sb += buf[6 * i * K + 5 * K + k];
    }
    if (r1 != OpReq::kNull) Assign(da, k, r1, static_cast<T>(sa));
    if (r2 != OpReq::kNull) Assign(db, k, r2, static_cast<T>(sb));
  });
  for (size_t o = 3; o < 8; ++o) {  // no gradient for the other inputs
    if (req[o] != OpReq::kWriteTo && req[o] != OpReq::kWriteInplace) continue;
    const int64_t n = out[o].Size();
    if (out[o].dtype == DType::kInt32) {
      int32_t* p = out[o].ptr<int32_t>();
      Launch(ctx, n, [=] WEFT_HD(int64_t i) { p[i] = 0; });
    } else {
      T* p = out[o].ptr<T>();
      Launch(ctx, n, [=] WEFT_HD(int64_t i) { p[i] = T(0); });
    }
  }
}

void Forward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_contrib_hawkesll", T, ForwardT<T>(ctx, in, req, out);)
}
void Backward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  WEFT_GPU_REAL_SWITCH(in[2].dtype, "_contrib_backward_hawkesll", T, BackwardT<T>(ctx, in, req, out);)
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ContribHawkesllGpu, Forward)
WEFT_GPU_KERNEL_EXPORT(ContribBackwardHawkesllGpu, Backward)

}  // namespace cuda
}  // namespace weft
