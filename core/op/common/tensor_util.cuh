// Shared by the GPU kernels of the tensor ops (reshape, slice, concat,
// indexing, broadcast, reductions ...): host helpers that move bytes on the
// op's stream, defined once in tensor_util.cu so each dtype is instantiated
// once, and the small device functions that copy the CPU kernels' numeric
// rules (core/op/common/copy_cpu.cc, core/op/index/indexing_cpu.cc). Note [GPU kernel style] in
// kernel.h.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {

// ---- host helpers (tensor_util.cu) ----

// out (req)= in, same dtype and size: a stream copy (nothing when out is in,
// the in-place reshape), or an elementwise add for kAddTo.
void CopyGPU(const OpContext& ctx, const TensorView& in, OpReq req, const TensorView& out);

// dst[dst_off + sum i_k dst_stride_k] (req)= src[src_off + sum i_k src_stride_k]
// for every index i of shape (offsets and strides in elements). The dst
// positions must be distinct (no zero dst stride). Dims of size 1 are dropped
// and dims contiguous in both layouts merged, as on the CPU.
void StridedCopyGPU(const OpContext& ctx, DType dtype, const std::vector<int64_t>& shape, const void* src,
                    int64_t src_off, const std::vector<int64_t>& src_stride, void* dst, int64_t dst_off,
                    const std::vector<int64_t>& dst_stride, OpReq req);

// Row-major strides of shape, in elements.
std::vector<int64_t> RowMajor(const std::vector<int64_t>& shape);
// out (req)= in broadcast to out's shape (in left-padded with 1s): broadcast_to
// and the reductions' backward.
void BroadcastCopyGPU(const OpContext& ctx, const TensorView& in, OpReq req, const TensorView& out);

// dst[i] = idx[i] as int64 by the CPU's ReadIndices rule (floats truncated,
// NaN 0, clamped to int64); idx of any GPU dtype.
void IndicesToInt64GPU(const OpContext& ctx, const TensorView& idx, int64_t* dst);
// dst[i] = v[i] as double (nnx_cpu::ToDoubles).
void ValuesToDoubleGPU(const OpContext& ctx, const TensorView& v, double* dst);
// out (req)= src converted from float64 to out's dtype (tensor_cpu::ConvertCopy).
void DoublesToGPU(const OpContext& ctx, const double* src, OpReq req, const TensorView& out);

// Carves the op's one Scratch block (kernel.h) into pieces of the given
// byte sizes, each aligned to 256 bytes.
std::vector<void*> ScratchPieces(const OpContext& ctx, const std::vector<size_t>& bytes);

// ---- device helpers ----

// double -> D by ConvertCopy's SafeCast: for integers NaN gives 0, values are
// truncated, clamped to int64 and wrapped to D's width.
template <typename D>
WEFT_HD inline D CastDouble(double v) {
  if constexpr (std::is_integral<D>::value && !std::is_same<D, bool>::value) {
    if (v != v) return D(0);
    if (v >= 9.2233720368547758e18) return static_cast<D>(std::numeric_limits<int64_t>::max());
    if (v <= -9.2233720368547758e18) return static_cast<D>(std::numeric_limits<int64_t>::min());
    return static_cast<D>(static_cast<int64_t>(v));
  } else {
    return static_cast<D>(v);
  }
}

// out[i] (req)= v stored from float64 (ConvertCopy from a float64 buffer, how
// the CPU scatters store their double accumulators).
template <typename T>
WEFT_HD inline void StoreDouble(T* out, int64_t i, OpReq req, double v) {
  out[i] = CastDouble<T>(req == OpReq::kAddTo ? static_cast<double>(out[i]) + v : v);
}

// Offset of flat index i of `shape` (row-major) under `stride`.
WEFT_HD inline int64_t OffsetOf(int64_t i, const Dims& shape, const Dims& stride) {
  int64_t off = 0;
  for (int k = shape.ndim - 1; k >= 0; --k) {
    const int64_t n = shape.d[k];
    off += (i % n) * stride.d[k];
    i /= n;
  }
  return off;
}

// The index modes of take and pick (tensor_cpu::IndexMode as int). 'raise'
// cannot raise from device data: a negative index counts from the end once,
// and an index still out of range is clipped.
enum IndexModeGPU : int { kModeClip = 0, kModeWrap = 1, kModeRaise = 2 };
WEFT_HD inline int64_t FixIndexGPU(int64_t i, int64_t n, int mode) {
  if (mode == kModeWrap) {
    const int64_t r = i % n;
    return r < 0 ? r + n : r;
  }
  if (mode == kModeRaise && i < 0) i += n;
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

}  // namespace cuda
}  // namespace weft

// Kernels that only move elements run on an unsigned type of the element's
// size, so they are compiled four times rather than once per dtype.
#define WEFT_GPU_MOVE_SWITCH(dt, op, E, ...)                                               \
  switch (dt) {                                                                            \
    case ::weft::DType::kUint8:                                                            \
    case ::weft::DType::kInt8:                                                             \
    case ::weft::DType::kBool: { using E = uint8_t; __VA_ARGS__ break; }                   \
    case ::weft::DType::kFloat16:                                                          \
    case ::weft::DType::kBFloat16: { using E = uint16_t; __VA_ARGS__ break; }              \
    case ::weft::DType::kFloat32:                                                          \
    case ::weft::DType::kInt32: { using E = uint32_t; __VA_ARGS__ break; }                 \
    case ::weft::DType::kFloat64:                                                          \
    case ::weft::DType::kInt64: { using E = uint64_t; __VA_ARGS__ break; }                 \
    default: ::weft::cuda::UnsupportedDType(op, dt);                                       \
  }
