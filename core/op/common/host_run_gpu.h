// GPU kernels whose work is host code (a custom operator's callbacks, a
// control-flow op's subgraph) run their CPU kernel on host copies of the op's
// arrays: wait for the op's stream (earlier kernels wrote the inputs), copy the
// inputs and the outputs in (so kAddTo and kWriteInplace see their contents),
// run the kernel with a CPU context, and copy the outputs back, and the inputs
// from `copy_back_from` on (inputs the op writes, e.g. a forward's aux states).
#pragma once
#include <cstdint>
#include <vector>

#include "core/gpu/device_api.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

using HostBuf = std::vector<uint64_t>;  // 8-byte aligned host storage

inline TensorView ToHost(const TensorView& v, HostBuf* buf) {
  const size_t bytes = static_cast<size_t>(v.Size()) * DTypeSize(v.dtype);
  buf->assign((bytes + 7) / 8 + 1, 0);
  if (v.data != nullptr && bytes != 0) gpu::MemcpySync(buf->data(), v.data, bytes);
  TensorView h = v;
  h.data = v.data != nullptr ? buf->data() : nullptr;  // an absent (undeclared backward) input stays absent
  return h;
}

template <typename Fn>
void RunOnHostCopies(Fn kernel, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out, size_t copy_back_from) {
  gpu::StreamSync(static_cast<gpu::Stream>(ctx.stream));
  std::vector<HostBuf> in_buf(in.size()), out_buf(out.size());
  std::vector<TensorView> hin, hout;
  for (size_t i = 0; i < in.size(); ++i) hin.push_back(ToHost(in[i], &in_buf[i]));
  for (size_t i = 0; i < out.size(); ++i) hout.push_back(ToHost(out[i], &out_buf[i]));
  OpContext host = ctx;
  host.ctx = Context::CPU();
  host.stream = nullptr;
  kernel(host, p, hin, req, hout);
  auto copy_back = [](const TensorView& dev, const TensorView& h) {
    const size_t bytes = static_cast<size_t>(dev.Size()) * DTypeSize(dev.dtype);
    if (bytes != 0) gpu::MemcpySync(dev.data, h.data, bytes);
  };
  for (size_t i = 0; i < out.size(); ++i)
    if (req[i] != OpReq::kNull) copy_back(out[i], hout[i]);
  for (size_t i = copy_back_from; i < in.size(); ++i) copy_back(in[i], hin[i]);
}

}  // namespace cuda
}  // namespace weft
