// The GPU kernels of the one-strided-copy ops (core/op/shape/view_plan.cu),
// attached by their declarations with set_compute_gpu(WEFT_GPU(...)) (Note [GPU
// kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(TileGpu);
WEFT_GPU_KERNEL_DECL(RepeatGpu);
WEFT_GPU_KERNEL_DECL(ReverseGpu);
WEFT_GPU_KERNEL_DECL(SwapAxisGpu);
WEFT_GPU_KERNEL_DECL(DepthToSpaceGpu);
WEFT_GPU_KERNEL_DECL(SpaceToDepthGpu);
WEFT_GPU_KERNEL_DECL(DiagGpu);
WEFT_GPU_KERNEL_DECL(BackwardDiagGpu);
WEFT_GPU_KERNEL_DECL(SliceLikeGpu);
WEFT_GPU_KERNEL_DECL(BackwardSliceLikeGpu);
WEFT_GPU_KERNEL_DECL(CropGpu);
WEFT_GPU_KERNEL_DECL(BackwardCropGpu);
WEFT_GPU_KERNEL_DECL(SplitV2Gpu);
WEFT_GPU_KERNEL_DECL(BackwardTileGpu);
WEFT_GPU_KERNEL_DECL(BackwardRepeatGpu);

}  // namespace cuda
}  // namespace weft
