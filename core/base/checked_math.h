// Overflow-checked arithmetic for shapes, byte sizes and offsets.
//
// Note [Checked shape arithmetic]
// Shapes, byte counts and strides come from files, sockets and users (a symbol
// JSON may Reshape to (17, 1085102592571150096), whose product wraps to 16 in
// int64). Every product or sum that sizes memory goes through these helpers
// (Shape::Size and ProdRange use them, NDArray::Bytes and the memory planner
// use CheckedBytes), so an overflow is a ShapeError / OutOfMemoryError naming
// what was being sized, never a wrapped size that a kernel then trusts.
// Rule: `grep -n "Size() \*" core` finds no unchecked byte product.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace weft {

// a * b, or throws kShape: "<what>: ... overflows int64".
int64_t CheckedMul(int64_t a, int64_t b, const char* what);
// a + b, or throws kShape.
int64_t CheckedAdd(int64_t a, int64_t b, const char* what);
// elements * item_bytes as a byte count, or throws kOutOfMemory naming what.
int64_t CheckedBytes(int64_t elements, size_t item_bytes, const std::string& what);
// a * b clamped to INT64_MAX, for what is never an allocation or an index: a
// ParallelFor cost hint, the strides of a zero-size array (a 2**62 dim beside
// a 0 dim is a valid empty shape whose strides need not fit).
inline int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

}  // namespace weft
