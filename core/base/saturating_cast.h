// Float -> integer conversions that cannot be undefined (Note [Float to int conversions]).
#pragma once
#include <cstdint>

namespace weft {

// Note [Float to int conversions]
// A count or an index computed from data or from a float attribute (a hash
// column, a roi's batch index, ratio * positives, scale * extent) may be NaN,
// an infinity or beyond 2**63; converting such a value to an integer is
// undefined (UBSan's float-cast-overflow), and on x86 it silently yields
// INT64_MIN, which turns "infinitely many" into "none". SaturatingToInt64
// truncates toward zero and clamps to int64 (NaN -> 0); callers range-check
// the result as they would any other value. Kernels shared with the GPU use
// the WEFT_HD twins (elemwise_rules::FloatToInt, spatial::TruncI).
inline int64_t SaturatingToInt64(double v) {
  if (!(v == v)) return 0;
  if (v >= 9223372036854775808.0) return INT64_MAX;  // 2**63
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(v);
}

}  // namespace weft
