// GPU kernels of broadcast_to, broadcast_axis and broadcast_like
// (core/op/elemwise/broadcast.cc): a strided copy with stride 0 along the
// broadcast axes (common/tensor_util.cu).
#include <vector>

#include "core/op/common/tensor_util.cuh"
#include "core/op/elemwise/broadcast_gpu.h"

namespace weft {
namespace cuda {
namespace {

void BroadcastCompute(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  BroadcastCopyGPU(ctx, in[0], req[0], out[0]);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(BroadcastToGpu, BroadcastCompute)    // broadcast_to
WEFT_GPU_KERNEL_EXPORT(BroadcastAxisGpu, BroadcastCompute)  // broadcast_axis
WEFT_GPU_KERNEL_EXPORT(BroadcastLikeGpu, BroadcastCompute)  // broadcast_like

}  // namespace cuda
}  // namespace weft
