// GPU kernels of smooth_l1, _backward_smooth_l1 and _backward_MakeLoss
// (core/op/loss/loss_misc.cc), mirroring their CPU kernels (loss_cpu.cc).
#include <string>
#include <type_traits>
#include <vector>

#include "core/op/elemwise/elemwise_math.cuh"
#include "core/op/common/gpu_kernel.h"
#include "core/op/loss/loss_misc_gpu.h"

namespace weft {
namespace cuda {
namespace {

// ---- smooth_l1, _backward_smooth_l1, _backward_MakeLoss (float types) ----

// *dst (req)= v as nnx_cpu::Store: computed in A = AccT<T> (float for the 16-bit types).
template <typename T, typename A>
WEFT_HD inline void StoreReal(T* out, int64_t i, OpReq req, A v) {
  out[i] = req == OpReq::kAddTo ? static_cast<T>(static_cast<A>(out[i]) + v) : static_cast<T>(v);
}

using elem::SignOf;

// gy == nullptr: forward y = f(x); otherwise gx = gy * f'(x).
template <typename T>
void SmoothL1Launch(const OpContext& ctx, const T* gy, const T* x, T* out, int64_t n, OpReq req, AccT<T> s2) {
  using A = AccT<T>;
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    const A v = static_cast<A>(x[i]);
    if (gy == nullptr) {
      const A a = std::fabs(v);
      StoreReal(out, i, req, a < A(1) / s2 ? A(0.5) * v * v * s2 : a - A(0.5) / s2);
    } else {
      StoreReal(out, i, req, static_cast<A>(gy[i]) * (std::fabs(v) < A(1) / s2 ? v * s2 : SignOf(v)));
    }
  });
}

void SmoothL1(const OpContext& ctx, const char* op, const TensorView* gy, const TensorView& x, double sigma,
              OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(x.dtype, op, T, {
    SmoothL1Launch<T>(ctx, gy ? gy->ptr<T>() : nullptr, x.ptr<T>(), out.ptr<T>(), out.Size(), req,
                      static_cast<T>(sigma * sigma));
  });
}

// Elements of x above thresh, counted in chunks (one index per chunk), then
// summed by one index; the result lands in count[0]. No atomics, so the
// emulated build gives the same count.
template <typename T>
void CountAbove(const OpContext& ctx, const T* x, int64_t n, double thresh, int64_t* partial, int64_t chunks,
                int64_t chunk) {
  Launch(ctx, chunks, [=] WEFT_HD(int64_t c) {
    const int64_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
    int64_t k = 0;
    for (int64_t i = lo; i < hi; ++i) k += static_cast<double>(x[i]) > thresh;
    partial[c + 1] = k;
  });
  Launch(ctx, 1, [=] WEFT_HD(int64_t) {
    int64_t k = 0;
    for (int64_t c = 0; c < chunks; ++c) k += partial[c + 1];
    partial[0] = k;
  });
}

// gx = grad_scale / divisor, the divisor read from *valid when valid != null.
template <typename T>
void MakeLossFill(const OpContext& ctx, T* out, int64_t n, OpReq req, double scale, const int64_t* valid) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    double s = scale;
    if (valid != nullptr) s /= static_cast<double>(*valid > 0 ? *valid : 1);
    StoreReal(out, i, req, static_cast<T>(s));
  });
}

void MakeLossBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const TensorView& x = in[0];
  const std::string& norm = p.GetString("normalization");
  double scale = p.GetFloat("grad_scale");
  WEFT_GPU_REAL_SWITCH(x.dtype, "_backward_MakeLoss", T, {
    const int64_t* valid = nullptr;
    if (norm == "batch") {
      scale /= x.ndim() > 0 && x.shape[0] > 0 ? static_cast<double>(x.shape[0]) : 1.0;
    } else if (norm == "valid") {
      constexpr int64_t kChunk = 4096;
      const int64_t n = x.Size(), chunks = (n + kChunk - 1) / kChunk;
      int64_t* counts = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(chunks + 1) * sizeof(int64_t)));
      if (chunks == 0) gpu::MemsetAsync(counts, 0, sizeof(int64_t), ctx.stream);
      else CountAbove<T>(ctx, x.ptr<T>(), n, p.GetFloat("valid_thresh"), counts, chunks, kChunk);
      valid = counts;
    }
    MakeLossFill<T>(ctx, out[0].ptr<T>(), out[0].Size(), req[0], scale, valid);
  });
}

}  // namespace

WEFT_GPU_KERNEL_DECL(SmoothL1Gpu) { SmoothL1(ctx, "smooth_l1", nullptr, in[0], p.GetFloat("scalar"), req[0], out[0]); }
WEFT_GPU_KERNEL_DECL(BackwardSmoothL1Gpu) {
  SmoothL1(ctx, "_backward_smooth_l1", &in[0], in[1], p.GetFloat("scalar"), req[0], out[0]);
}
WEFT_GPU_KERNEL_EXPORT(BackwardMakeLossGpu, MakeLossBackward)

}  // namespace cuda
}  // namespace weft
