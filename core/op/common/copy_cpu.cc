#include "core/op/common/copy_cpu.h"

#include <cstring>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "core/base/error.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace tensor_cpu {

void WriteWithReq(OpReq req, const TensorView& out, const std::function<void(const TensorView&)>& write) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  if (req != OpReq::kAddTo) {
    write(out);
    return;
  }
  std::unique_ptr<char[]> tmp(new char[static_cast<size_t>(out.Size()) * DTypeSize(out.dtype)]);
  TensorView t{tmp.get(), out.dtype, out.shape};
  write(t);
  AddInto(t, out);
}

namespace {

template <typename T>
void AddLoop(const T* s, T* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = static_cast<T>(static_cast<float>(d[i]) + static_cast<float>(s[i]));
}
#define WEFT_EXACT_ADD(T) \
  template <>             \
  void AddLoop<T>(const T* s, T* d, int64_t n) { for (int64_t i = 0; i < n; ++i) d[i] = static_cast<T>(d[i] + s[i]); }
WEFT_EXACT_ADD(float)
WEFT_EXACT_ADD(double)
WEFT_EXACT_ADD(uint8_t)
WEFT_EXACT_ADD(int8_t)
WEFT_EXACT_ADD(int32_t)
WEFT_EXACT_ADD(int64_t)
#undef WEFT_EXACT_ADD
template <>
void AddLoop<bool>(const bool* s, bool* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = d[i] || s[i];
}

// 16-bit floats convert through float (their only arithmetic type).
template <typename T>
using Arith = typename std::conditional<std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value, float,
                                        T>::type;

// Float -> integer by the rule of Note [Defined integer edge cases] in
// elemwise_kernels.h: NaN gives 0, truncate, clamp to int64, wrap to width.
template <typename D, typename S>
D SafeCast(S v) {
  if constexpr (std::is_integral<D>::value && !std::is_same<D, bool>::value &&
                std::is_floating_point<S>::value) {
    if (v != v) return D(0);
    if (v >= static_cast<S>(9.2233720368547758e18)) return static_cast<D>(INT64_MAX);
    if (v <= static_cast<S>(-9.2233720368547758e18)) return static_cast<D>(INT64_MIN);
    return static_cast<D>(static_cast<int64_t>(v));
  } else {
    return static_cast<D>(v);
  }
}

template <typename E>
void CopyRows(const std::vector<int64_t>& shape, const char* src, const std::vector<int64_t>& ss, char* dst,
              const std::vector<int64_t>& ds, int64_t first_begin, int64_t first_end) {
  const int m = static_cast<int>(shape.size());
  const int64_t n = shape[m - 1], s_in = ss[m - 1], d_in = ds[m - 1];
  const E* s = reinterpret_cast<const E*>(src);
  E* d = reinterpret_cast<E*>(dst);
  auto row = [&](int64_t so, int64_t dof) {
    if (s_in == 1 && d_in == 1) {
      std::memcpy(d + dof, s + so, static_cast<size_t>(n) * sizeof(E));
    } else {
      for (int64_t j = 0; j < n; ++j) d[dof + j * d_in] = s[so + j * s_in];
    }
  };
  if (m == 1) {
    // Only the row itself; the first dim is the row dim.
    const int64_t len = first_end - first_begin;
    if (s_in == 1 && d_in == 1) {
      std::memcpy(d + first_begin, s + first_begin, static_cast<size_t>(len) * sizeof(E));
    } else {
      for (int64_t j = first_begin; j < first_end; ++j) d[j * d_in] = s[j * s_in];
    }
    return;
  }
  std::vector<int64_t> idx(static_cast<size_t>(m - 1), 0);
  idx[0] = first_begin;
  int64_t so = first_begin * ss[0], dof = first_begin * ds[0];
  while (idx[0] < first_end) {
    row(so, dof);
    int k = m - 2;
    for (; k >= 0; --k) {
      ++idx[k];
      so += ss[k];
      dof += ds[k];
      if (k == 0 || idx[k] < shape[k]) break;
      so -= ss[k] * shape[k];
      dof -= ds[k] * shape[k];
      idx[k] = 0;
    }
  }
}

}  // namespace

void AddInto(const TensorView& src, const TensorView& dst) {
  WEFT_CHECK(src.dtype == dst.dtype && src.Size() == dst.Size(), kInternal) << "AddInto: mismatched views";
  WEFT_DTYPE_SWITCH(dst.dtype, T, { AddLoop<T>(src.ptr<T>(), dst.ptr<T>(), dst.Size()); })
}

void ConvertCopy(const TensorView& in, OpReq req, const TensorView& out) {
  WEFT_CHECK(in.Size() == out.Size(), kInternal) << "ConvertCopy: size mismatch";
  if (req == OpReq::kNull || out.Size() == 0) return;
  if (in.dtype == out.dtype && req != OpReq::kAddTo) {
    if (in.data != out.data) std::memcpy(out.data, in.data, static_cast<size_t>(out.Size()) * DTypeSize(out.dtype));
    return;
  }
  if (in.dtype == out.dtype) {
    AddInto(in, out);
    return;
  }
  WEFT_DTYPE_SWITCH(in.dtype, S, {
    WEFT_DTYPE_SWITCH(out.dtype, D, {
      using SA = Arith<S>;
      using DA = Arith<D>;
      const S* s = in.ptr<S>();
      D* d = out.ptr<D>();
      const int64_t n = out.Size();
      if (req == OpReq::kAddTo) {
        for (int64_t i = 0; i < n; ++i)
          d[i] = static_cast<D>(SafeCast<DA>(static_cast<double>(static_cast<DA>(d[i])) +
                                             static_cast<double>(static_cast<SA>(s[i]))));
      } else {
        for (int64_t i = 0; i < n; ++i) d[i] = static_cast<D>(SafeCast<DA>(static_cast<SA>(s[i])));
      }
    })
  })
}

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> st(shape.size(), 1);
  // Saturating: only a zero-size shape's strides can overflow, and none is used.
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) st[i] = SaturatingMul(st[i + 1], shape[i + 1]);
  return st;
}

bool MergeCopyDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& src_stride,
                   const std::vector<int64_t>& dst_stride, CopyDims* out) {
  // Drop unit dims, then merge dims that are contiguous in both layouts.
  std::vector<int64_t> sh, ss, ds;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0) return false;
    if (shape[k] == 1) continue;
    if (!sh.empty() && ss.back() == src_stride[k] * shape[k] && ds.back() == dst_stride[k] * shape[k]) {
      sh.back() *= shape[k];
      ss.back() = src_stride[k];
      ds.back() = dst_stride[k];
    } else {
      sh.push_back(shape[k]);
      ss.push_back(src_stride[k]);
      ds.push_back(dst_stride[k]);
    }
  }
  if (sh.empty()) {
    sh.push_back(1);
    ss.push_back(1);
    ds.push_back(1);
  }
  out->shape = std::move(sh);
  out->src_stride = std::move(ss);
  out->dst_stride = std::move(ds);
  return true;
}

void StridedCopy(size_t elem_size, std::vector<int64_t> shape, const void* src, int64_t src_off,
                 std::vector<int64_t> src_stride, void* dst, int64_t dst_off, std::vector<int64_t> dst_stride) {
  CopyDims m;
  if (!MergeCopyDims(shape, src_stride, dst_stride, &m)) return;
  const std::vector<int64_t>& sh = m.shape;
  const std::vector<int64_t>& ss = m.src_stride;
  const std::vector<int64_t>& ds = m.dst_stride;
  const char* s = static_cast<const char*>(src) + src_off * static_cast<int64_t>(elem_size);
  char* d = static_cast<char*>(dst) + dst_off * static_cast<int64_t>(elem_size);
  const int64_t per_first = ContiguousStrides(sh)[0];  // elements under one index of dim 0
  auto run = [&](int64_t b, int64_t e) {
    switch (elem_size) {
      case 1: CopyRows<uint8_t>(sh, s, ss, d, ds, b, e); break;
      case 2: CopyRows<uint16_t>(sh, s, ss, d, ds, b, e); break;
      case 4: CopyRows<uint32_t>(sh, s, ss, d, ds, b, e); break;
      case 8: CopyRows<uint64_t>(sh, s, ss, d, ds, b, e); break;
      default: WEFT_THROW(kInternal) << "StridedCopy: element size " << elem_size;
    }
  };
  ParallelFor(sh[0], per_first * static_cast<int64_t>(elem_size) / 4 + 1, run);
}

void StridedFill(DType dtype, double value, const std::vector<int64_t>& shape, void* dst, int64_t dst_off,
                 const std::vector<int64_t>& stride) {
  // Fill one element, then broadcast it with a zero-stride copy.
  uint64_t one = 0;
  WEFT_DTYPE_SWITCH(dtype, T, {
    T v = static_cast<T>(SafeCast<Arith<T>>(value));
    std::memcpy(&one, &v, sizeof(T));
  })
  std::vector<int64_t> zero(shape.size(), 0);
  StridedCopy(DTypeSize(dtype), shape, &one, 0, zero, dst, dst_off, stride);
}

void FillCPU(const TensorView& out, OpReq req, double value) {
  WriteWithReq(req, out, [&](const TensorView& o) {
    std::vector<int64_t> shape{o.Size()};
    StridedFill(o.dtype, value, shape, o.data, 0, {1});
  });
}

}  // namespace tensor_cpu
}  // namespace weft
