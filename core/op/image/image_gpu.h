// The GPU kernels of core/op/image/image.cu, attached by the declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ImageToTensorGpu);
WEFT_GPU_KERNEL_DECL(ImageNormalizeGpu);
WEFT_GPU_KERNEL_DECL(ImageNormalizeBackwardGpu);
WEFT_GPU_KERNEL_DECL(ImageFlipLeftRightGpu);
WEFT_GPU_KERNEL_DECL(ImageFlipTopBottomGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomFlipLeftRightGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomFlipTopBottomGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomBrightnessGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomContrastGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomSaturationGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomHueGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomColorJitterGpu);
WEFT_GPU_KERNEL_DECL(ImageAdjustLightingGpu);
WEFT_GPU_KERNEL_DECL(ImageRandomLightingGpu);
WEFT_GPU_KERNEL_DECL(ImageResizeGpu);
WEFT_GPU_KERNEL_DECL(ImageCropGpu);
WEFT_GPU_KERNEL_DECL(ImageCropBackwardGpu);

}  // namespace cuda
}  // namespace weft
