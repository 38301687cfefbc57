// What every GPU kernel file (core/op/<family>/*.cu) includes: the launch helper,
// the host/device function marker, and the dtype switch of GPU kernels.
//
// Note [GPU kernel style]
// A kernel is a lambda (or functor) body run once per index i in [0, n):
//   Launch(ctx, n, [=] WEFT_HD (int64_t i) { out[i] = a[i] + b[i]; });
// nvcc compiles it to a grid-stride CUDA kernel on the op's stream; the
// emulated build (Note [Two GPU backends], core/gpu/device_api.h) compiles the
// same file as C++ and runs the body over i on the host. So a body must be
// correct for any order and any concurrency of its indices: each index writes
// only its own outputs (reductions loop over their reduced axis inside one
// index), and it may call only WEFT_HD functions. Kernels stay simple -- one
// thread per output, no shared-memory tiling -- so both builds run the same
// code; speed-critical products go to gpu::Gemm (cuBLAS). A body is a template
// over the storage type T (the dtype switches below): float16/bfloat16 arrive
// as gpu_half/gpu_bf16, which compute as float, and a body that accumulates
// keeps its sum in AccT<T> (Note [16-bit floats on GPU], common/half_hd.h).
#pragma once
#include <cstdint>

#include "core/base/error.h"
#include "core/gpu/blas.h"
#include "core/gpu/device_api.h"
#include "core/opdef/op_def.h"

#include "core/op/common/half_hd.h"
#include "core/op/common/hd.h"
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include "core/op/op_util.h"
#endif

namespace weft {

namespace gpu {
// gpu::Gemm / GemmStridedBatched (core/gpu/blas.h) on the kernels' 16-bit
// arrays: gpu_half / gpu_bf16 are the bits of half_t / bf16_t.
#define WEFT_GEMM16(H, S)                                                                                      \
  inline void Gemm(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha, const H* a, int lda,  \
                   const H* b, int ldb, float beta, H* c, int ldc) {                                          \
    Gemm(dev, s, ta, tb, m, n, k, alpha, reinterpret_cast<const S*>(a), lda, reinterpret_cast<const S*>(b), ldb, \
         beta, reinterpret_cast<S*>(c), ldc);                                                                 \
  }                                                                                                           \
  inline void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha,       \
                                 const H* a, int lda, int64_t sa, const H* b, int ldb, int64_t sb, float beta, \
                                 H* c, int ldc, int64_t sc, int batch) {                                      \
    GemmStridedBatched(dev, s, ta, tb, m, n, k, alpha, reinterpret_cast<const S*>(a), lda, sa,                 \
                       reinterpret_cast<const S*>(b), ldb, sb, beta, reinterpret_cast<S*>(c), ldc, sc, batch); \
  }
WEFT_GEMM16(gpu_half, half_t)
WEFT_GEMM16(gpu_bf16, bf16_t)
#undef WEFT_GEMM16
}  // namespace gpu

namespace cuda {

#if defined(__CUDACC__)
template <typename F>
__global__ void GridStrideKernel(int64_t n, F f) {
  const int64_t step = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) f(i);
}

template <typename F>
void Launch(const OpContext& ctx, int64_t n, F f) {
  if (n <= 0) return;
  constexpr int kThreads = 256;
  // Enough blocks to fill any current GPU; the grid-stride loop covers the rest.
  const int64_t blocks = (n + kThreads - 1) / kThreads < 65536 ? (n + kThreads - 1) / kThreads : 65536;
  GridStrideKernel<<<static_cast<unsigned>(blocks), kThreads, 0, static_cast<cudaStream_t>(ctx.stream)>>>(n, f);
  gpu::CheckLastError("kernel launch");
}
#else
template <typename F>
void Launch(const OpContext&, int64_t n, F f) {
  if (n <= 0) return;
  // Concurrent like a device, so a body that races with itself can show it.
  ParallelFor(n, 1, [&f](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) f(i);
  });
}
#endif

// Scratch device memory for the op (gpu::WorkerScratch): valid until the
// next Scratch call of this worker, so an op asks once for all it needs.
inline void* Scratch(const OpContext& ctx, size_t bytes) {
  return gpu::WorkerScratch(ctx.ctx.dev_id, bytes, ctx.stream);
}

// A shape a kernel can capture by value (Shape holds a std::vector).
constexpr int kMaxDims = 8;
struct Dims {
  int ndim = 0;
  int64_t d[kMaxDims] = {};
  WEFT_HD int64_t operator[](int i) const { return d[i]; }
};
inline Dims ToDims(const Shape& s) {
  WEFT_CHECK(s.ndim() <= kMaxDims, kShape) << "GPU kernels take at most " << kMaxDims << " dimensions, got shape "
                                           << s.ToString();
  Dims r;
  r.ndim = s.ndim();
  for (int i = 0; i < s.ndim(); ++i) r.d[i] = s[i];
  return r;
}

// The stream and device of the op.
inline gpu::Stream StreamOf(const OpContext& ctx) { return ctx.stream; }
inline int DeviceOf(const OpContext& ctx) { return ctx.ctx.dev_id; }

// Writes v to out honouring req (kAddTo accumulates, in AccT<T>); kNull is
// filtered by callers before launching. v may be T or its accumulator type.
template <typename T, typename V>
WEFT_HD inline void Assign(T* out, int64_t i, OpReq req, V v) {
  if (req == OpReq::kAddTo) {
    out[i] = static_cast<T>(static_cast<AccT<T>>(out[i]) + static_cast<AccT<T>>(v));
  } else {
    out[i] = static_cast<T>(v);
  }
}

// Throws kDType naming the op when a GPU kernel does not cover dtype.
inline void UnsupportedDType(const char* op, DType dt) {
  WEFT_THROW(kDType) << op << ": dtype " << DTypeName(dt)
                     << " is not supported on GPU by this operator (cast first)";
}

}  // namespace cuda
}  // namespace weft

// Floating dtypes of GPU kernels: float32, float64, float16 (T = gpu_half) and
// bfloat16 (T = gpu_bf16), the 16-bit ones stored as bits and computed in
// float (Note [16-bit floats on GPU] in common/half_hd.h; accumulators are
// AccT<T>). The ops that stay float32/float64-only on GPU switch with
// WEFT_GPU_F32_F64_SWITCH: the linalg family and khatri_rao (float32/float64
// on the CPU and in MXNet's la_op) and RNN (its CPU kernels, the reference,
// are float32/float64).
#define WEFT_GPU_REAL_SWITCH(dt, op, T, ...)                                  \
  switch (dt) {                                                               \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }      \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }     \
    case ::weft::DType::kFloat16: { using T = ::weft::gpu_half; __VA_ARGS__ break; } \
    case ::weft::DType::kBFloat16: { using T = ::weft::gpu_bf16; __VA_ARGS__ break; } \
    default: ::weft::cuda::UnsupportedDType(op, dt);                          \
  }

// float32 and float64 only (the ops that say why they lack 16-bit kernels).
#define WEFT_GPU_F32_F64_SWITCH(dt, op, T, ...)                               \
  switch (dt) {                                                               \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }      \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }     \
    default: ::weft::cuda::UnsupportedDType(op, dt);                          \
  }

// Every dtype a GPU kernel handles: the floating ones and the integers.
#define WEFT_GPU_ALL_SWITCH(dt, op, T, ...)                                   \
  switch (dt) {                                                               \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }      \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }     \
    case ::weft::DType::kFloat16: { using T = ::weft::gpu_half; __VA_ARGS__ break; } \
    case ::weft::DType::kBFloat16: { using T = ::weft::gpu_bf16; __VA_ARGS__ break; } \
    case ::weft::DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }      \
    case ::weft::DType::kInt8: { using T = int8_t; __VA_ARGS__ break; }        \
    case ::weft::DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }      \
    case ::weft::DType::kInt64: { using T = int64_t; __VA_ARGS__ break; }      \
    case ::weft::DType::kBool: { using T = bool; __VA_ARGS__ break; }          \
    default: ::weft::cuda::UnsupportedDType(op, dt);                          \
  }
