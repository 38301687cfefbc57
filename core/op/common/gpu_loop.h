// The GPU loop policy (common/loop_policy.h): Launch over the indices, device
// scratch from the worker; float16 storage is gpu_half (Note [16-bit floats
// on GPU] in common/half_hd.h). Included by .cu files only.
#pragma once
#include <vector>

#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {

struct GpuLoop {
  static constexpr bool kHalf = true;
  using Half = gpu_half;
  template <typename F>
  static void For(const OpContext& ctx, int64_t n, F f) {
    Launch(ctx, n, f);
  }
  static void* Temp(const OpContext& ctx, size_t bytes, std::vector<char>*) { return Scratch(ctx, bytes); }
  static void Unsupported(const char* op, DType dt) { UnsupportedDType(op, dt); }
};

}  // namespace cuda
}  // namespace weft
