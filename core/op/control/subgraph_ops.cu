// GPU kernels of the control-flow operators: the subgraph runs on host copies
// of the node's arrays, as a custom operator's callbacks do
// (common/host_run_gpu.h). Why not on the device: a kernel runs on a GPU
// worker lane, whose ops complete from that lane's stream callbacks, so a
// kernel that pushes device ops and waits for them would wait on itself.
// (Note [Subgraph operators] in subgraph_ops.h.)
#include <cstdint>
#include <string>
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/control/subgraph_kernel.h"
#include "core/op/control/subgraph_ops_gpu.h"

namespace weft {
namespace cuda {
namespace {

#define WEFT_CONTROL_GPU(fn, slot, op)                                                                 \
  void fn##Impl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,               \
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                    \
    RunOnHostCopies(control::SubgraphKernel(control::SubgraphSlot::slot, op), ctx, p, in, req, out, in.size()); \
  }
WEFT_CONTROL_GPU(Foreach, kForeach, "_foreach")
WEFT_CONTROL_GPU(ForeachBackward, kForeachBackward, "_backward_foreach")
WEFT_CONTROL_GPU(WhileLoop, kWhileLoop, "_while_loop")
WEFT_CONTROL_GPU(WhileLoopBackward, kWhileLoopBackward, "_backward_while_loop")
WEFT_CONTROL_GPU(Cond, kCond, "_cond")
WEFT_CONTROL_GPU(CondBackward, kCondBackward, "_backward_cond")
#undef WEFT_CONTROL_GPU

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ForeachGpu, ForeachImpl)
WEFT_GPU_KERNEL_EXPORT(ForeachBackwardGpu, ForeachBackwardImpl)
WEFT_GPU_KERNEL_EXPORT(WhileLoopGpu, WhileLoopImpl)
WEFT_GPU_KERNEL_EXPORT(WhileLoopBackwardGpu, WhileLoopBackwardImpl)
WEFT_GPU_KERNEL_EXPORT(CondGpu, CondImpl)
WEFT_GPU_KERNEL_EXPORT(CondBackwardGpu, CondBackwardImpl)

}  // namespace cuda
}  // namespace weft
