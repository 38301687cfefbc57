// The GPU kernels of core/op/spatial/im2col.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/op/spatial/im2col_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace nnm {
// The geometry of an image of shape `image` (N, C, spatial...) under p's
// kernel, stride, dilate and pad (core/op/spatial/im2col.cc).
ColGeom ColGeomOf(const Params& p, const Shape& image);
}  // namespace nnm

namespace cuda {

WEFT_GPU_KERNEL_DECL(Im2colGpu);  // im2col
WEFT_GPU_KERNEL_DECL(Col2imGpu);  // col2im
WEFT_GPU_KERNEL_DECL(BackwardIm2colGpu);  // _backward_im2col

}  // namespace cuda
}  // namespace weft
