// GPU kernels of the shape-only ops (core/op/shape/reshape.cc): Reshape, Flatten,
// expand_dims, squeeze and _backward_reshape copy the bytes (nothing when run
// in place), and of transpose (core/op/shape/transpose.cc), a strided copy.
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

void CopyCompute(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  CopyGPU(ctx, in[0], req[0], out[0]);
}

// transpose's permutation (core/op/shape/transpose.cc): out axis i is input axis
// perm[i]; axes=() reverses. Shape inference has checked axes already.
std::vector<int> Permutation(const Params& p, const Shape& d) {
  const std::vector<int64_t>& axes = p.GetTuple("axes");
  const int nd = d.ndim();
  std::vector<int> perm(static_cast<size_t>(nd));
  for (int i = 0; i < nd; ++i)
    perm[static_cast<size_t>(i)] = axes.empty() ? nd - 1 - i
                                                : tensor::NormalizeAxis(axes[static_cast<size_t>(i)], nd,
                                                                        "transpose", "data");
  return perm;
}

void Transpose(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  const std::vector<int> perm = Permutation(p, in[0].shape);
  const std::vector<int64_t> istride = RowMajor(in[0].shape.dims());
  std::vector<int64_t> src_stride;
  for (int ax : perm) src_stride.push_back(istride[static_cast<size_t>(ax)]);
  StridedCopyGPU(ctx, out[0].dtype, out[0].shape.dims(), in[0].data, 0, src_stride, out[0].data, 0,
                 RowMajor(out[0].shape.dims()), req[0]);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ReshapeGpu, CopyCompute)  // Reshape
WEFT_GPU_KERNEL_EXPORT(FlattenGpu, CopyCompute)  // Flatten
WEFT_GPU_KERNEL_EXPORT(ExpandDimsGpu, CopyCompute)  // expand_dims
WEFT_GPU_KERNEL_EXPORT(SqueezeGpu, CopyCompute)  // squeeze
WEFT_GPU_KERNEL_EXPORT(BackwardReshapeGpu, CopyCompute)  // _backward_reshape
WEFT_GPU_KERNEL_EXPORT(TransposeGpu, Transpose)  // transpose

}  // namespace cuda
}  // namespace weft
