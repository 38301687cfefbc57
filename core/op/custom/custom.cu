// GPU kernels of Custom and _backward_Custom (core/op/custom/custom.cc): the
// callbacks of a custom operator are host code, so the op waits for its
// stream, copies its arrays to host memory, runs the CPU kernel there with a
// CPU context (the callback sees CPU arrays) and copies the outputs back.
// Outputs are copied in too, so kAddTo and kWriteInplace see their contents.
#include <cstdint>
#include <vector>

#include "core/gpu/device_api.h"
#include "core/op/custom/custom_gpu.h"
#include "core/op/custom/custom_op.h"

namespace weft {
namespace cuda {
namespace {

using HostBuf = std::vector<uint64_t>;  // 8-byte aligned host storage

TensorView ToHost(const TensorView& v, HostBuf* buf) {
  const size_t bytes = static_cast<size_t>(v.Size()) * DTypeSize(v.dtype);
  buf->assign((bytes + 7) / 8 + 1, 0);
  if (v.data != nullptr && bytes != 0) gpu::MemcpySync(buf->data(), v.data, bytes);
  TensorView h = v;
  h.data = v.data != nullptr ? buf->data() : nullptr;  // an undeclared backward input stays absent
  return h;
}

// Inputs from `mutated_from` on (the forward's aux states) are copied back too.
template <typename Fn>
void OnHost(Fn kernel, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
            const std::vector<OpReq>& req, const std::vector<TensorView>& out, size_t mutated_from) {
  gpu::StreamSync(static_cast<gpu::Stream>(ctx.stream));  // earlier kernels wrote our inputs
  std::vector<HostBuf> in_buf(in.size()), out_buf(out.size());
  std::vector<TensorView> hin, hout;
  for (size_t i = 0; i < in.size(); ++i) hin.push_back(ToHost(in[i], &in_buf[i]));
  for (size_t i = 0; i < out.size(); ++i) hout.push_back(ToHost(out[i], &out_buf[i]));
  OpContext host = ctx;
  host.ctx = Context::CPU();
  host.stream = nullptr;
  kernel(host, p, hin, req, hout);
  for (size_t i = 0; i < out.size(); ++i) {
    if (req[i] == OpReq::kNull) continue;
    gpu::MemcpySync(out[i].data, hout[i].data, static_cast<size_t>(out[i].Size()) * DTypeSize(out[i].dtype));
  }
  for (size_t i = mutated_from; i < in.size(); ++i)
    gpu::MemcpySync(in[i].data, hin[i].data, static_cast<size_t>(in[i].Size()) * DTypeSize(in[i].dtype));
}

void CustomImpl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  OnHost(custom::CustomForwardCPU, ctx, p, in, req, out, custom::CustomNumArgs(p));
}
void CustomBackwardImpl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  OnHost(custom::CustomBackwardCPU, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(CustomGpu, CustomImpl)
WEFT_GPU_KERNEL_EXPORT(CustomBackwardGpu, CustomBackwardImpl)

}  // namespace cuda
}  // namespace weft
