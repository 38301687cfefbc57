#include "core/op/index/indexing_cpu.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {
namespace {

template <typename T>
int64_t ToIndex(T v) {
  if constexpr (std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value) {
    return ToIndex(static_cast<float>(v));
  } else if constexpr (std::is_floating_point<T>::value) {
    if (v != v) return 0;
    if (v >= static_cast<T>(9.2e18)) return INT64_MAX;
    if (v <= static_cast<T>(-9.2e18)) return INT64_MIN;
    return static_cast<int64_t>(v);
  } else {
    return static_cast<int64_t>(v);
  }
}

// Messages of errors thrown here carry no op name: the engine prefixes it.
int64_t FixIndex(int64_t i, int64_t n, IndexMode mode) {
  switch (mode) {
    case IndexMode::kClip:
      return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case IndexMode::kWrap: {
      int64_t r = i % n;
      return r < 0 ? r + n : r;
    }
    case IndexMode::kRaise:
      WEFT_CHECK(i >= -n && i < n, kInvalidArgument)
          << "index " << i << " out of range for an axis of size " << n << " (mode='raise')";
      return i < 0 ? i + n : i;
  }
  return 0;
}

// Copies `count` elements of es bytes.
inline void CopyElems(char* dst, const char* src, int64_t count, size_t es) {
  std::memcpy(dst, src, static_cast<size_t>(count) * es);
}

// Byte offsets (in units of the slice) of each index tuple for gather/scatter.
std::vector<int64_t> NDOffsets(const TensorView& indices, const Shape& data, const char* input) {
  const int m = static_cast<int>(indices.shape[0]);
  const int64_t n = indices.Size() / std::max<int64_t>(m, 1);
  std::vector<int64_t> idx = ReadIndices(indices), off(static_cast<size_t>(m == 0 ? 1 : n), 0);
  if (m == 0) return off;
  int64_t stride = 1;
  for (int j = m - 1; j >= 0; --j) {
    const int64_t dim = data[j];
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = idx[static_cast<size_t>(j * n + i)];
      WEFT_CHECK(v >= -dim && v < dim, kInvalidArgument)
          << "index " << v << " out of range for axis " << j << " of input '" << input << "' (size " << dim << ")";
      off[static_cast<size_t>(i)] += (v < 0 ? v + dim : v) * stride;
    }
    stride *= dim;
  }
  return off;
}

}  // namespace

std::vector<int64_t> ReadIndices(const TensorView& idx) {
  std::vector<int64_t> r(static_cast<size_t>(idx.Size()));
  WEFT_DTYPE_SWITCH(idx.dtype, T, {
    const T* p = idx.ptr<T>();
    for (size_t i = 0; i < r.size(); ++i) r[i] = ToIndex(p[i]);
  })
  return r;
}

void TakeCPU(const TensorView& a, const TensorView& indices, int axis, IndexMode mode, OpReq req,
             const TensorView& out) {
  const int64_t outer = a.shape.ProdRange(0, axis), n = a.shape[axis];
  const int64_t inner = a.shape.ProdRange(axis + 1, a.ndim());
  const size_t es = DTypeSize(a.dtype);
  std::vector<int64_t> idx = ReadIndices(indices);
  const int64_t ni = static_cast<int64_t>(idx.size());
  if (out.Size() == 0) return;
  WEFT_CHECK(n > 0, kInvalidArgument) << "cannot take from an empty axis " << axis << " of input 'a'";
  for (auto& i : idx) i = FixIndex(i, n, mode);
  WriteWithReq(req, out, [&](const TensorView& o) {
    const char* src = static_cast<const char*>(a.data);
    char* dst = static_cast<char*>(o.data);
    ParallelFor(outer * ni, inner * static_cast<int64_t>(es), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        const int64_t oi = r / ni, ii = r % ni;
        CopyElems(dst + r * inner * es, src + (oi * n + idx[static_cast<size_t>(ii)]) * inner * es, inner, es);
      }
    });
  });
}

void PickCPU(const TensorView& data, const TensorView& index, int axis, IndexMode mode, OpReq req,
             const TensorView& out) {
  const int64_t outer = data.shape.ProdRange(0, axis), n = data.shape[axis];
  const int64_t inner = data.shape.ProdRange(axis + 1, data.ndim());
  const size_t es = DTypeSize(data.dtype);
  std::vector<int64_t> idx = ReadIndices(index);
  if (out.Size() == 0) return;
  WEFT_CHECK(n > 0, kInvalidArgument) << "cannot pick from an empty axis " << axis << " of input 'data'";
  WriteWithReq(req, out, [&](const TensorView& o) {
    const char* src = static_cast<const char*>(data.data);
    char* dst = static_cast<char*>(o.data);
    for (int64_t oi = 0; oi < outer; ++oi) {
      for (int64_t k = 0; k < inner; ++k) {
        const int64_t r = oi * inner + k;
        const int64_t j = FixIndex(idx[static_cast<size_t>(r)], n, mode);
        std::memcpy(dst + r * es, src + ((oi * n + j) * inner + k) * es, es);
      }
    }
  });
}

void OneHotCPU(const TensorView& indices, int64_t depth, double on_value, double off_value, OpReq req,
               const TensorView& out) {
  std::vector<int64_t> idx = ReadIndices(indices);
  WriteWithReq(req, out, [&](const TensorView& o) {
    StridedFill(o.dtype, off_value, {o.Size()}, o.data, 0, {1});
    const size_t es = DTypeSize(o.dtype);
    uint64_t on = 0;  // on_value in o's dtype
    StridedFill(o.dtype, on_value, {1}, &on, 0, {1});
    char* dst = static_cast<char*>(o.data);
    for (size_t i = 0; i < idx.size(); ++i)
      if (idx[i] >= 0 && idx[i] < depth)
        std::memcpy(dst + (static_cast<int64_t>(i) * depth + idx[i]) * static_cast<int64_t>(es), &on, es);
  });
}

void GatherNDCPU(const TensorView& data, const TensorView& indices, OpReq req, const TensorView& out) {
  const int m = static_cast<int>(indices.shape[0]);
  const int64_t slice = data.shape.ProdRange(m, data.ndim());
  const size_t es = DTypeSize(data.dtype);
  std::vector<int64_t> off = NDOffsets(indices, data.shape, "data");
  WriteWithReq(req, out, [&](const TensorView& o) {
    const char* src = static_cast<const char*>(data.data);
    char* dst = static_cast<char*>(o.data);
    for (size_t i = 0; i < off.size(); ++i)
      CopyElems(dst + static_cast<int64_t>(i) * slice * es, src + off[i] * slice * es, slice, es);
  });
}

void ScatterSetNDCPU(const TensorView& lhs, const TensorView& rhs, const TensorView& indices, OpReq req,
                     const TensorView& out) {
  const int m = static_cast<int>(indices.shape[0]);
  const int64_t slice = out.shape.ProdRange(m, out.ndim());
  const size_t es = DTypeSize(out.dtype);
  std::vector<int64_t> off = NDOffsets(indices, out.shape, "lhs");
  WriteWithReq(req, out, [&](const TensorView& o) {
    if (o.data != lhs.data) std::memcpy(o.data, lhs.data, static_cast<size_t>(o.Size()) * es);
    const char* src = static_cast<const char*>(rhs.data);
    char* dst = static_cast<char*>(o.data);
    for (size_t i = 0; i < off.size(); ++i)
      std::memmove(dst + off[i] * slice * es, src + static_cast<int64_t>(i) * slice * es,
                   static_cast<size_t>(slice) * es);
  });
}

}  // namespace tensor_cpu
}  // namespace weft
