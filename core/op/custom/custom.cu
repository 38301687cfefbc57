// GPU kernels of Custom and _backward_Custom (core/op/custom/custom.cc): the
// callbacks of a custom operator are host code, so the CPU kernel runs on host
// copies of the arrays (common/host_run_gpu.h; the callback sees CPU arrays).
#include <cstdint>
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/custom/custom_gpu.h"
#include "core/op/custom/custom_op.h"

namespace weft {
namespace cuda {
namespace {

void CustomImpl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(custom::CustomForwardCPU, ctx, p, in, req, out, custom::CustomNumArgs(p));
}
void CustomBackwardImpl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(custom::CustomBackwardCPU, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(CustomGpu, CustomImpl)
WEFT_GPU_KERNEL_EXPORT(CustomBackwardGpu, CustomBackwardImpl)

}  // namespace cuda
}  // namespace weft
