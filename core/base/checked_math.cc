#include "core/base/checked_math.h"

#include "core/base/error.h"

namespace weft {

int64_t CheckedMul(int64_t a, int64_t b, const char* what) {
  int64_t r = 0;
  WEFT_CHECK(!__builtin_mul_overflow(a, b, &r), kShape)
      << what << ": " << a << " * " << b << " overflows int64 (more than 2^63 - 1 elements)";
  return r;
}

int64_t CheckedAdd(int64_t a, int64_t b, const char* what) {
  int64_t r = 0;
  WEFT_CHECK(!__builtin_add_overflow(a, b, &r), kShape) << what << ": " << a << " + " << b << " overflows int64";
  return r;
}

int64_t CheckedBytes(int64_t elements, size_t item_bytes, const std::string& what) {
  int64_t r = 0;
  WEFT_CHECK(elements >= 0 && !__builtin_mul_overflow(elements, static_cast<int64_t>(item_bytes), &r),
             kOutOfMemory)
      << what << ": " << elements << " elements of " << item_bytes << " bytes need more than 2^63 bytes";
  return r;
}

}  // namespace weft
