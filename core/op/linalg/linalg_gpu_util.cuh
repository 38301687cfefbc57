// What the linalg family's GPU kernels share: one scratch allocation carved
// into typed pieces, and kAddTo done as "compute into scratch, then add".
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace linalg_gpu {

// The trailing dimension: the matrix size n of a batch of n x n matrices.
inline int64_t LastDim(const TensorView& t) { return t.shape[t.ndim() - 1]; }

// Sizes first (Add), then one Scratch call (Allocate), then the pieces (At).
class ScratchPlan {
 public:
  size_t Add(size_t bytes) {
    const size_t at = total_;
    total_ += (bytes + 255) / 256 * 256;
    return at;
  }
  void Allocate(const OpContext& ctx) { base_ = total_ ? static_cast<char*>(Scratch(ctx, total_)) : nullptr; }
  template <typename T>
  T* At(size_t at) const { return reinterpret_cast<T*>(base_ + at); }

 private:
  size_t total_ = 0;
  char* base_ = nullptr;
};

// Where a kernel writes the whole of an output: the output itself, or a
// scratch piece when req is kAddTo (then AddBack adds it).
template <typename T>
struct OutSlot {
  T* final = nullptr;
  int64_t n = 0;
  OpReq req = OpReq::kWriteTo;
  size_t at = 0;
  T* dst = nullptr;
  void Plan(ScratchPlan* s, const TensorView& out, OpReq r) {
    final = out.ptr<T>();
    n = out.Size();
    req = r;
    if (req == OpReq::kAddTo) at = s->Add(sizeof(T) * static_cast<size_t>(n));
  }
  void Bind(const ScratchPlan& s) { dst = req == OpReq::kAddTo ? s.At<T>(at) : final; }
  void AddBack(const OpContext& ctx) const {
    if (req != OpReq::kAddTo) return;
    T* o = final;
    const T* t = dst;
    Launch(ctx, n, [=] WEFT_HD(int64_t i) { o[i] += t[i]; });
  }
};

}  // namespace linalg_gpu
}  // namespace cuda
}  // namespace weft
