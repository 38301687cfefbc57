// The host helpers of tensor_util.cuh: copies, strided copies and the
// conversions of index / length arrays, each instantiated once per dtype.
#include "core/op/common/tensor_util.cuh"

#include "core/op/common/copy_cpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void AddIntoT(const OpContext& ctx, const T* s, T* d, int64_t n) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { Assign(d, i, OpReq::kAddTo, s[i]); });
}

template <typename T>
void StridedCopyT(const OpContext& ctx, int64_t n, const T* s, Dims shape, Dims ss, T* d, Dims ds, OpReq req) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { Assign(d, OffsetOf(i, shape, ds), req, s[OffsetOf(i, shape, ss)]); });
}

// ToIndex of core/op/index/indexing_cpu.cc.
template <typename T>
WEFT_HD inline int64_t ToIndex(T v) {
  if constexpr (IsFloatStorage<T>::value) {
    if (v != v) return 0;
    if (v >= static_cast<T>(9.2e18)) return std::numeric_limits<int64_t>::max();
    if (v <= static_cast<T>(-9.2e18)) return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(v);
}

template <typename T>
void ToInt64T(const OpContext& ctx, const T* s, int64_t* d, int64_t n) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { d[i] = ToIndex(s[i]); });
}

template <typename T>
void ToDoubleT(const OpContext& ctx, const T* s, double* d, int64_t n) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { d[i] = static_cast<double>(s[i]); });
}

template <typename T>
void FromDoubleT(const OpContext& ctx, const double* s, OpReq req, T* d, int64_t n) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { StoreDouble(d, i, req, s[i]); });
}

Dims DimsOf(const std::vector<int64_t>& v) {
  WEFT_CHECK(v.size() <= static_cast<size_t>(kMaxDims), kShape)
      << "GPU kernels take at most " << kMaxDims << " dimensions (after merging), got " << v.size();
  Dims r;
  r.ndim = static_cast<int>(v.size());
  for (size_t i = 0; i < v.size(); ++i) r.d[i] = v[i];
  return r;
}

}  // namespace

std::vector<int64_t> RowMajor(const std::vector<int64_t>& shape) { return tensor_cpu::ContiguousStrides(shape); }

void CopyGPU(const OpContext& ctx, const TensorView& in, OpReq req, const TensorView& out) {
  WEFT_CHECK(in.dtype == out.dtype && in.Size() == out.Size(), kInternal)
      << "copy: mismatched views " << DTypeName(in.dtype) << in.shape.ToString() << " -> " << DTypeName(out.dtype)
      << out.shape.ToString();
  if (req == OpReq::kNull || out.Size() == 0) return;
  if (req != OpReq::kAddTo) {
    if (in.data != out.data)
      gpu::MemcpyAsync(out.data, in.data, static_cast<size_t>(out.Size()) * DTypeSize(out.dtype), StreamOf(ctx));
    return;
  }
  WEFT_GPU_ALL_SWITCH(out.dtype, "copy", T, { AddIntoT<T>(ctx, in.ptr<T>(), out.ptr<T>(), out.Size()); });
}

void StridedCopyGPU(const OpContext& ctx, DType dtype, const std::vector<int64_t>& shape, const void* src,
                    int64_t src_off, const std::vector<int64_t>& src_stride, void* dst, int64_t dst_off,
                    const std::vector<int64_t>& dst_stride, OpReq req) {
  if (req == OpReq::kNull) return;
  // The dims StridedCopy walks on the CPU.
  tensor_cpu::CopyDims m;
  if (!tensor_cpu::MergeCopyDims(shape, src_stride, dst_stride, &m)) return;
  int64_t n = 1;
  for (int64_t v : m.shape) n *= v;
  const Dims dsh = DimsOf(m.shape), dss = DimsOf(m.src_stride), dds = DimsOf(m.dst_stride);
  WEFT_GPU_ALL_SWITCH(dtype, "copy", T, {
    StridedCopyT<T>(ctx, n, static_cast<const T*>(src) + src_off, dsh, dss, static_cast<T*>(dst) + dst_off, dds,
                    req);
  });
}

std::vector<void*> ScratchPieces(const OpContext& ctx, const std::vector<size_t>& bytes) {
  constexpr size_t kAlign = 256;
  std::vector<size_t> at;
  size_t total = 0;
  for (size_t b : bytes) {
    at.push_back(total);
    total += (b + kAlign - 1) / kAlign * kAlign;
  }
  char* base = static_cast<char*>(Scratch(ctx, total > 0 ? total : kAlign));
  std::vector<void*> r;
  for (size_t a : at) r.push_back(base + a);
  return r;
}

void IndicesToInt64GPU(const OpContext& ctx, const TensorView& idx, int64_t* dst) {
  WEFT_GPU_ALL_SWITCH(idx.dtype, "indices", T, { ToInt64T<T>(ctx, idx.ptr<T>(), dst, idx.Size()); });
}

void ValuesToDoubleGPU(const OpContext& ctx, const TensorView& v, double* dst) {
  WEFT_GPU_ALL_SWITCH(v.dtype, "values", T, { ToDoubleT<T>(ctx, v.ptr<T>(), dst, v.Size()); });
}

void DoublesToGPU(const OpContext& ctx, const double* src, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  WEFT_GPU_ALL_SWITCH(out.dtype, "convert", T, { FromDoubleT<T>(ctx, src, req, out.ptr<T>(), out.Size()); });
}

// out (req)= in broadcast to out's shape (in left-padded with 1s).
void BroadcastCopyGPU(const OpContext& ctx, const TensorView& in, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const int nd = out.ndim(), pad = nd - in.ndim();
  WEFT_CHECK(pad >= 0, kInternal) << "broadcast: " << in.shape.ToString() << " has more dims than "
                                  << out.shape.ToString();
  std::vector<int64_t> padded(static_cast<size_t>(nd), 1);
  for (int i = 0; i < in.ndim(); ++i) padded[static_cast<size_t>(i + pad)] = in.shape[i];
  std::vector<int64_t> stride = RowMajor(padded);
  for (int i = 0; i < nd; ++i)
    if (padded[static_cast<size_t>(i)] == 1) stride[static_cast<size_t>(i)] = 0;
  StridedCopyGPU(ctx, out.dtype, out.shape.dims(), in.data, 0, stride, out.data, 0, RowMajor(out.shape.dims()), req);
}

}  // namespace cuda
}  // namespace weft
