// CPU kernels of the spatial family (core/op/spatial/), attached by the op
// declarations with set_compute_cpu; each runs its op's rule (<name>_rules.h)
// over the indices (Note [One spatial rule], spatial_hd.h).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace spatial_cpu {

#define WEFT_SPATIAL_CPU_KERNEL(name)                                                              \
  void name(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,             \
            const std::vector<OpReq>& req, const std::vector<TensorView>& out)

WEFT_SPATIAL_CPU_KERNEL(BilinearResize);          // _contrib_BilinearResize2D
WEFT_SPATIAL_CPU_KERNEL(BilinearResizeBackward);  // _backward_contrib_BilinearResize2D
WEFT_SPATIAL_CPU_KERNEL(AdaptiveAvgPool);          // _contrib_AdaptiveAvgPooling2D
WEFT_SPATIAL_CPU_KERNEL(AdaptiveAvgPoolBackward);  // _backward_contrib_AdaptiveAvgPooling2D
WEFT_SPATIAL_CPU_KERNEL(ROIAlign);          // _contrib_ROIAlign
WEFT_SPATIAL_CPU_KERNEL(ROIAlignBackward);  // _backward_ROIAlign
WEFT_SPATIAL_CPU_KERNEL(ROIPooling);          // ROIPooling
WEFT_SPATIAL_CPU_KERNEL(ROIPoolingBackward);  // _backward_ROIPooling
WEFT_SPATIAL_CPU_KERNEL(GridGenerator);          // GridGenerator
WEFT_SPATIAL_CPU_KERNEL(GridGeneratorBackward);  // _backward_GridGenerator
WEFT_SPATIAL_CPU_KERNEL(BilinearSampler);          // BilinearSampler
WEFT_SPATIAL_CPU_KERNEL(BilinearSamplerBackward);  // _backward_BilinearSampler
WEFT_SPATIAL_CPU_KERNEL(SpatialTransformer);          // SpatialTransformer
WEFT_SPATIAL_CPU_KERNEL(SpatialTransformerBackward);  // _backward_SpatialTransformer
// _contrib_DeformableConvolution and _contrib_ModulatedDeformableConvolution (mask when p has im2col_step)
WEFT_SPATIAL_CPU_KERNEL(DeformableConv);
WEFT_SPATIAL_CPU_KERNEL(DeformableConvBackward);  // their backward ops
WEFT_SPATIAL_CPU_KERNEL(PSROIPooling);          // _contrib_PSROIPooling
WEFT_SPATIAL_CPU_KERNEL(PSROIPoolingBackward);  // _backward_PSROIPooling
WEFT_SPATIAL_CPU_KERNEL(Correlation);          // Correlation
WEFT_SPATIAL_CPU_KERNEL(CorrelationBackward);  // _backward_Correlation
WEFT_SPATIAL_CPU_KERNEL(RROIAlign);  // _contrib_RROIAlign
WEFT_SPATIAL_CPU_KERNEL(DeformablePSROIPooling);          // _contrib_DeformablePSROIPooling
WEFT_SPATIAL_CPU_KERNEL(DeformablePSROIPoolingBackward);  // _backward_DeformablePSROIPooling

#undef WEFT_SPATIAL_CPU_KERNEL

}  // namespace spatial_cpu
}  // namespace weft
