// add_n on CPU: blocks of the output summed over every input in one pass.
#include "core/op/elemwise/add_n_cpu.h"

#include <type_traits>

#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace elemwise_cpu {

using nnx_cpu::Acc;
using nnx_cpu::Store;

namespace {

// Integer sums wrap modulo 2^bits (computed unsigned), floats add in Acc.
template <typename T>
struct SumType {
  using type = typename std::conditional<std::is_integral<T>::value, uint64_t, Acc<T>>::type;
};

template <typename T>
void AddNT(const std::vector<TensorView>& ins, OpReq req, const TensorView& out) {
  using S = typename SumType<T>::type;
  constexpr int64_t kBlock = 2048;
  T* op = out.ptr<T>();
  const int64_t n = out.Size();
  ParallelFor((n + kBlock - 1) / kBlock, kBlock * static_cast<int64_t>(ins.size()), [&](int64_t b, int64_t e) {
    S acc[kBlock];
    for (int64_t blk = b; blk < e; ++blk) {
      const int64_t lo = blk * kBlock, len = std::min(kBlock, n - lo);
      for (int64_t i = 0; i < len; ++i) acc[i] = S(0);
      // Every input of the block is read before the block is written (out may alias an input).
      for (const TensorView& in : ins) {
        const T* ip = in.ptr<T>() + lo;
        for (int64_t i = 0; i < len; ++i) acc[i] += static_cast<S>(ip[i]);
      }
      for (int64_t i = 0; i < len; ++i) {
        if constexpr (std::is_integral<T>::value) {
          if (req == OpReq::kAddTo) op[lo + i] = static_cast<T>(static_cast<S>(op[lo + i]) + acc[i]);
          else if (req != OpReq::kNull) op[lo + i] = static_cast<T>(acc[i]);
        } else {
          Store(req, op + lo + i, acc[i]);
        }
      }
    }
  });
}

}  // namespace

void AddN(const std::vector<TensorView>& ins, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  switch (out.dtype) {
    case DType::kUint8: AddNT<uint8_t>(ins, req, out); break;
    case DType::kInt8: AddNT<int8_t>(ins, req, out); break;
    case DType::kInt32: AddNT<int32_t>(ins, req, out); break;
    case DType::kInt64: AddNT<int64_t>(ins, req, out); break;
    default: WEFT_NNX_FLOAT_SWITCH(out.dtype, "add_n", T, { AddNT<T>(ins, req, out); })
  }
}

}  // namespace elemwise_cpu
}  // namespace weft
