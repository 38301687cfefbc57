// GPU kernels of the NumPy-mode stacks (np_stack.cc): each input's strided copy
// into the output, or out_grad's back into each input's gradient (Note [Stacks
// as promoted concatenations] in np_stack_rules.h).
#include <vector>

#include "core/op/common/tensor_util.cuh"
#include "core/op/shape/np_stack_rules.h"
#include "core/op/shape/np_stack_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpStack(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  std::vector<Shape> shapes;
  for (const TensorView& t : in) shapes.push_back(t.shape);
  const tensor::NpStackParts parts = tensor::NpStackPartsOf(p.op()->name, shapes);
  for (size_t i = 0; i < in.size(); ++i) {
    const tensor::ViewPlan v = tensor::NpStackPlan(parts, i, false);
    StridedCopyGPU(ctx, out[0].dtype, v.shape, in[i].data, v.src_off, v.src_stride, out[0].data, v.dst_off,
                   v.dst_stride, req[0]);
  }
}

void BackwardNpStack(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  std::vector<Shape> shapes;
  for (size_t i = 1; i < in.size(); ++i) shapes.push_back(in[i].shape);
  const tensor::NpStackParts parts = tensor::NpStackPartsOf(p.op()->name, shapes);
  for (size_t i = 0; i < out.size(); ++i) {
    if (req[i] == OpReq::kNull) continue;
    const tensor::ViewPlan v = tensor::NpStackPlan(parts, i, true);
    StridedCopyGPU(ctx, out[i].dtype, v.shape, in[0].data, v.src_off, v.src_stride, out[i].data, v.dst_off,
                   v.dst_stride, req[i]);
  }
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpStackGpu, NpStack)
WEFT_GPU_KERNEL_EXPORT(BackwardNpStackGpu, BackwardNpStack)

}  // namespace cuda
}  // namespace weft
