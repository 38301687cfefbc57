// The (outer, n, inner) view of _np_cumsum (cumsum) around its axis, shared by
// the declaration, the CPU kernel and the GPU kernel (axis None is the
// flattened array: one row of all elements), and the running sum of one row,
// which both kernels run (cumsum_cpu.cc over threads, cumsum.cu one thread a
// row).
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct CumsumRows {
  int64_t outer = 1, n = 1, inner = 1;
};

// Throws kInvalidArgument naming the op when the axis is out of range for s.
CumsumRows CumsumRowsOf(const Params& p, const Shape& s);

// The accumulator of a running sum over T: integers accumulate unsigned (they
// wrap, never overflow), the 16-bit floats (either device's storage type) in
// float.
template <typename T>
struct CumAccOf {
  using type = typename std::conditional<std::is_same<T, double>::value, double, float>::type;
};
template <> struct CumAccOf<bool> { using type = uint64_t; };
template <> struct CumAccOf<uint8_t> { using type = uint8_t; };
template <> struct CumAccOf<int8_t> { using type = uint8_t; };
template <> struct CumAccOf<int32_t> { using type = uint32_t; };
template <> struct CumAccOf<int64_t> { using type = uint64_t; };

// Row `row` of r (in [0, outer * inner)): out[k] = the sum of in up to k along
// the axis, from its end when reverse (the backward op); added to out when add.
template <typename T>
WEFT_HD inline void CumsumRow(const CumsumRows& r, int64_t row, bool reverse, const T* in, bool add, T* out) {
  using A = typename CumAccOf<T>::type;
  const int64_t base = (row / r.inner) * r.n * r.inner + row % r.inner;
  A acc = A(0);
  for (int64_t j = 0; j < r.n; ++j) {
    const int64_t k = base + (reverse ? r.n - 1 - j : j) * r.inner;
    acc = static_cast<A>(acc + static_cast<A>(in[k]));
    const T v = static_cast<T>(acc);
    out[k] = add ? static_cast<T>(static_cast<A>(out[k]) + static_cast<A>(v)) : v;
  }
}

}  // namespace tensor
}  // namespace weft
