// CPU kernel of _np_cumsum (core/op/reduce/cumsum_cpu.h).
#include "core/op/reduce/cumsum_cpu.h"

#include <type_traits>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {
namespace {

// Integers accumulate unsigned (they wrap, never overflow), the 16-bit floats
// in float.
template <typename T>
struct CumAccOf {
  using type = typename std::conditional<std::is_same<T, double>::value, double, float>::type;
};
template <> struct CumAccOf<bool> { using type = uint64_t; };
template <> struct CumAccOf<uint8_t> { using type = uint8_t; };
template <> struct CumAccOf<int8_t> { using type = uint8_t; };
template <> struct CumAccOf<int32_t> { using type = uint32_t; };
template <> struct CumAccOf<int64_t> { using type = uint64_t; };
template <typename T>
using CumAcc = typename CumAccOf<T>::type;

template <typename T>
void Rows(const tensor::CumsumRows& r, bool reverse, const T* in, bool add, T* out) {
  using A = CumAcc<T>;
  ParallelFor(r.outer * r.inner, r.n * 2, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const int64_t base = (row / r.inner) * r.n * r.inner + row % r.inner;
      A acc = A(0);
      for (int64_t j = 0; j < r.n; ++j) {
        const int64_t k = base + (reverse ? r.n - 1 - j : j) * r.inner;
        acc = static_cast<A>(acc + static_cast<A>(in[k]));
        const T v = static_cast<T>(acc);
        out[k] = add ? static_cast<T>(static_cast<A>(out[k]) + static_cast<A>(v)) : v;
      }
    }
  });
}

}  // namespace

void Cumsum(const char* op, const tensor::CumsumRows& rows, bool reverse, const TensorView& in, OpReq req,
            const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const void* src = in.data;
  if (in.dtype != out.dtype) {
    WEFT_CHECK(req != OpReq::kAddTo, kInvalidArgument)
        << op << ": accumulating (grad_req add) into an output of another dtype than the input is not supported";
    ConvertCopy(in, OpReq::kWriteTo, out);  // then the running sum in place
    src = out.data;
  }
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    Rows<T>(rows, reverse, static_cast<const T*>(src), req == OpReq::kAddTo, out.ptr<T>());
  });
}

}  // namespace tensor_cpu
}  // namespace weft
