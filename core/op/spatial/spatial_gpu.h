// The GPU kernels of the spatial family (core/op/spatial/*.cu), attached by the
// op declarations with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in
// core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(BilinearResizeGpu);          // _contrib_BilinearResize2D
WEFT_GPU_KERNEL_DECL(BilinearResizeBackwardGpu);  // _backward_contrib_BilinearResize2D
WEFT_GPU_KERNEL_DECL(AdaptiveAvgPoolGpu);          // _contrib_AdaptiveAvgPooling2D
WEFT_GPU_KERNEL_DECL(AdaptiveAvgPoolBackwardGpu);  // _backward_contrib_AdaptiveAvgPooling2D
WEFT_GPU_KERNEL_DECL(ROIAlignGpu);          // _contrib_ROIAlign
WEFT_GPU_KERNEL_DECL(ROIAlignBackwardGpu);  // _backward_ROIAlign
WEFT_GPU_KERNEL_DECL(ROIPoolingGpu);          // ROIPooling
WEFT_GPU_KERNEL_DECL(ROIPoolingBackwardGpu);  // _backward_ROIPooling
WEFT_GPU_KERNEL_DECL(GridGeneratorGpu);          // GridGenerator
WEFT_GPU_KERNEL_DECL(GridGeneratorBackwardGpu);  // _backward_GridGenerator
WEFT_GPU_KERNEL_DECL(BilinearSamplerGpu);          // BilinearSampler
WEFT_GPU_KERNEL_DECL(BilinearSamplerBackwardGpu);  // _backward_BilinearSampler
WEFT_GPU_KERNEL_DECL(SpatialTransformerGpu);          // SpatialTransformer
WEFT_GPU_KERNEL_DECL(SpatialTransformerBackwardGpu);  // _backward_SpatialTransformer
WEFT_GPU_KERNEL_DECL(DeformableConvGpu);          // _contrib_(Modulated)DeformableConvolution
WEFT_GPU_KERNEL_DECL(DeformableConvBackwardGpu);  // their backward ops
WEFT_GPU_KERNEL_DECL(PSROIPoolingGpu);          // _contrib_PSROIPooling
WEFT_GPU_KERNEL_DECL(PSROIPoolingBackwardGpu);  // _backward_PSROIPooling
WEFT_GPU_KERNEL_DECL(CorrelationGpu);          // Correlation
WEFT_GPU_KERNEL_DECL(CorrelationBackwardGpu);  // _backward_Correlation
WEFT_GPU_KERNEL_DECL(RROIAlignGpu);  // _contrib_RROIAlign
WEFT_GPU_KERNEL_DECL(DeformablePSROIPoolingGpu);          // _contrib_DeformablePSROIPooling
WEFT_GPU_KERNEL_DECL(DeformablePSROIPoolingBackwardGpu);  // _backward_DeformablePSROIPooling

}  // namespace cuda
}  // namespace weft
