// GPU kernels of the control-flow operators: the subgraph runs on host copies
// of the node's arrays, as a custom operator's callbacks do (custom.cu), and
// the outputs are copied back. Why not on the device: a kernel runs on a GPU
// worker lane, whose ops complete from that lane's stream callbacks, so a
// kernel that pushes device ops and waits for them would wait on itself.
// (Note [Subgraph operators] in subgraph_ops.h.)
#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu/device_api.h"
#include "core/op/control/subgraph_kernel.h"
#include "core/op/control/subgraph_ops_gpu.h"

namespace weft {
namespace cuda {
namespace {

using HostBuf = std::vector<uint64_t>;  // 8-byte aligned host storage

TensorView HostCopy(const TensorView& v, HostBuf* buf) {
  const size_t bytes = static_cast<size_t>(v.Size()) * DTypeSize(v.dtype);
  buf->assign((bytes + 7) / 8 + 1, 0);
  if (v.data != nullptr && bytes != 0) gpu::MemcpySync(buf->data(), v.data, bytes);
  TensorView h = v;
  h.data = buf->data();
  return h;
}

void RunOnHost(const char* op, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  gpu::StreamSync(static_cast<gpu::Stream>(ctx.stream));  // earlier kernels wrote our inputs
  std::vector<HostBuf> in_buf(in.size()), out_buf(out.size());
  std::vector<TensorView> hin, hout;
  for (size_t i = 0; i < in.size(); ++i) hin.push_back(HostCopy(in[i], &in_buf[i]));
  for (size_t i = 0; i < out.size(); ++i) hout.push_back(HostCopy(out[i], &out_buf[i]));
  OpContext host = ctx;
  host.ctx = Context::CPU();
  host.stream = nullptr;
  control::SubgraphKernel(op)(host, p, hin, req, hout);
  for (size_t i = 0; i < out.size(); ++i) {
    if (req[i] == OpReq::kNull || out[i].Size() == 0) continue;
    gpu::MemcpySync(out[i].data, hout[i].data, static_cast<size_t>(out[i].Size()) * DTypeSize(out[i].dtype));
  }
}

#define WEFT_CONTROL_GPU(fn, op)                                                                      \
  void fn##Impl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,               \
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                    \
    RunOnHost(op, ctx, p, in, req, out);                                                               \
  }
WEFT_CONTROL_GPU(Foreach, "_foreach")
WEFT_CONTROL_GPU(ForeachBackward, "_backward_foreach")
WEFT_CONTROL_GPU(WhileLoop, "_while_loop")
WEFT_CONTROL_GPU(WhileLoopBackward, "_backward_while_loop")
WEFT_CONTROL_GPU(Cond, "_cond")
WEFT_CONTROL_GPU(CondBackward, "_backward_cond")
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
