// GPU kernel of reset_arrays: every input's bytes set to zero on the op's
// stream (zero bits are zero in every dtype).
#include <cstdint>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/optim/reset_arrays_gpu.h"

namespace weft {
namespace cuda {
namespace {

void ResetArrays(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>&,
                 const std::vector<TensorView>&) {
  for (const TensorView& x : in) {
    uint8_t* b = static_cast<uint8_t*>(x.data);
    Launch(ctx, x.Size() * static_cast<int64_t>(DTypeSize(x.dtype)), [=] WEFT_HD(int64_t i) { b[i] = 0; });
  }
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ResetArraysGpu, ResetArrays)

}  // namespace cuda
}  // namespace weft
