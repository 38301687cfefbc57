// Stores that honour the write mode, callable from CPU loops and GPU kernel
// bodies alike (WEFT_HD): the numeric rules written once for both builds use
// them (core/op/norm/l2_normalization_rules.h, group_norm_rules.h,
// core/op/seq/sequence_reverse.cc, ...). The CPU driver ForEachIndex runs a
// body over [0, n) across threads, as cuda::Launch does on the GPU.
#pragma once
#include <cstdint>

#include "core/op/common/half_hd.h"
#include "core/op/common/hd.h"
#include "core/opdef/op_def.h"
#if !defined(__CUDACC__)
#include "core/op/op_util.h"
#endif

namespace weft {
namespace nnm {

// out[i] (req)= v computed in A (kAddTo accumulates; callers skip kNull).
template <typename T, typename A>
WEFT_HD inline void Put(T* out, int64_t i, OpReq req, A v) {
  if (req == OpReq::kAddTo) {
    out[i] = static_cast<T>(static_cast<A>(out[i]) + v);
  } else {
    out[i] = static_cast<T>(v);
  }
}

// out[i] (req)= v for a float storage type T, as both devices' kernels store:
// kAddTo adds in AccT<T> (the GPU's cuda::Assign and the CPU's StoreReq agree
// on every float type), kNull writes nothing. A rule that replaced a CPU loop
// with StoreReq and a GPU body with Assign stores through it, so neither
// device's results change.
template <typename T>
WEFT_HD inline void Store(T* out, int64_t i, OpReq req, T v) {
  if (req != OpReq::kNull) Put(out, i, req, static_cast<AccT<T>>(v));
}

#if !defined(__CUDACC__)
// f(i) for i in [0, n) across the CPU team (cost: work per index).
template <typename F>
inline void ForEachIndex(int64_t n, int64_t cost, F f) {
  if (n <= 0) return;
  ParallelFor(n, cost, [&f](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) f(i);
  });
}
#endif

}  // namespace nnm
}  // namespace weft
