// The numeric rules shared by the elementwise kernels (included only by
// core/op/elemwise/*_cpu.cc): the arithmetic type of each dtype and the
// conversions back to storage. See Note [Elementwise arithmetic types] and
// Note [Defined integer edge cases] in elemwise_kernels.h.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/base/dtype.h"
#include "core/op/elemwise/elemwise_rules.h"

// Note [Vectorising at -O2]
// GCC 12 at -O2 vectorises only loops whose trip count is a known multiple of
// the vector width ("very cheap" cost model), which no kernel loop is. The
// innermost loops are therefore compiled with the vectoriser on (cheap cost
// model: runtime alias checks and epilogues allowed) through this attribute,
// and kept out of line so each is compiled once. Other compilers ignore it.
#if defined(__GNUC__) && !defined(__clang__)
#define WEFT_VECTOR_LOOP [[gnu::noinline, gnu::optimize("tree-vectorize", "vect-cost-model=cheap")]]
#else
#define WEFT_VECTOR_LOOP
#endif

namespace weft {
namespace elemwise_cpu {

// Arithmetic type of a storage type.
template <typename T> struct AccOf { using type = T; };
template <> struct AccOf<half_t> { using type = float; };
template <> struct AccOf<bf16_t> { using type = float; };
template <> struct AccOf<bool> { using type = uint8_t; };
template <typename T> using Acc = typename AccOf<T>::type;

// Shared with the GPU kernels (Note [One elementwise rule]).
using elemwise_rules::FloatToInt;
using elemwise_rules::kIsInt;
using elemwise_rules::WrapNeg;

// Converts an arithmetic value (or a double parameter) to storage type T.
template <typename T, typename C>
inline T ToStorage(C v) {
  if constexpr (std::is_same<T, bool>::value) {
    return v != C(0);
  } else if constexpr (std::is_integral<T>::value && std::is_floating_point<C>::value) {
    return FloatToInt<T>(v);
  } else if constexpr (std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// Stores r (storage type) into *dst under req (kWriteTo / kWriteInplace / kAddTo).
// Callers skip kNull before the loop. Integer accumulation wraps.
template <typename T>
inline void Store(bool add, T* dst, T r) {
  using C = Acc<T>;
  if (!add) {
    *dst = r;
  } else if constexpr (std::is_integral<C>::value) {
    using U = typename std::make_unsigned<C>::type;
    *dst = ToStorage<T>(static_cast<C>(static_cast<U>(static_cast<C>(*dst)) + static_cast<U>(static_cast<C>(r))));
  } else {
    *dst = ToStorage<T>(static_cast<C>(static_cast<C>(*dst) + static_cast<C>(r)));
  }
}

// kAddTo without a second copy of every loop: a kernel writes a block of
// results into a small buffer with its write-mode loop, then AddBlock adds the
// buffer into the output (one instantiation per dtype, not per op x dtype).
constexpr int64_t kAddBlock = 512;
template <typename T>
WEFT_VECTOR_LOOP void AddBlock(T* dst, const T* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) Store(true, dst + i, src[i]);
}
// Runs write(dst, offset, n) over [0, n) either straight into out, or in
// blocks through a buffer that is then added into out.
template <typename T, typename WriteFn>
inline void WriteOrAdd(T* out, int64_t n, bool add, WriteFn&& write) {
  if (!add) {
    write(out, int64_t(0), n);
    return;
  }
  T buf[kAddBlock];
  for (int64_t b = 0; b < n; b += kAddBlock) {
    const int64_t m = n - b < kAddBlock ? n - b : kAddBlock;
    write(buf, b, m);
    AddBlock(out + b, buf, m);
  }
}

}  // namespace elemwise_cpu
}  // namespace weft
