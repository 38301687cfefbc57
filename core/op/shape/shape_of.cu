// GPU kernels of shape_array and size_array (core/op/shape/reshape_like.cc):
// the input's dims, known on the host, written as int64 on the device.
#include <vector>

#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

void WriteDims(const OpContext& ctx, const Dims& d, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  int64_t* o = out.ptr<int64_t>();
  Launch(ctx, d.ndim, [=] WEFT_HD(int64_t i) { Assign(o, i, req, d.d[i]); });
}

void ShapeArray(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  WriteDims(ctx, ToDims(in[0].shape), req[0], out[0]);
}

void SizeArray(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  Dims d;
  d.ndim = 1;
  d.d[0] = in[0].Size();
  WriteDims(ctx, d, req[0], out[0]);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ShapeArrayGpu, ShapeArray)
WEFT_GPU_KERNEL_EXPORT(SizeArrayGpu, SizeArray)

}  // namespace cuda
}  // namespace weft
