// The image operators on the GPU: image_kernels.h over cuda::Launch (the same
// kernels as the CPU's, Note [GPU kernel style] in core/op/common/gpu_kernel.h).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/image/image_gpu.h"
#include "core/op/image/image_kernels.h"

namespace weft {
namespace cuda {
namespace {

using image::ImageOp;

struct GpuExec {
  const OpContext& ctx;
  template <typename F>
  void For(int64_t n, F f) const {
    Launch(ctx, n, f);
  }
  float* Floats(int64_t n) const { return static_cast<float*>(Scratch(ctx, static_cast<size_t>(n) * sizeof(float))); }
};

template <ImageOp kKind>
void Run(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  GpuExec ex{ctx};
  image::RunImageOp(ex, kKind, ctx, p, in, req, out);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ImageToTensorGpu, Run<ImageOp::kToTensor>)
WEFT_GPU_KERNEL_EXPORT(ImageNormalizeGpu, Run<ImageOp::kNormalize>)
WEFT_GPU_KERNEL_EXPORT(ImageNormalizeBackwardGpu, Run<ImageOp::kNormalizeBackward>)
WEFT_GPU_KERNEL_EXPORT(ImageFlipLeftRightGpu, Run<ImageOp::kFlipLeftRight>)
WEFT_GPU_KERNEL_EXPORT(ImageFlipTopBottomGpu, Run<ImageOp::kFlipTopBottom>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomFlipLeftRightGpu, Run<ImageOp::kRandomFlipLeftRight>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomFlipTopBottomGpu, Run<ImageOp::kRandomFlipTopBottom>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomBrightnessGpu, Run<ImageOp::kRandomBrightness>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomContrastGpu, Run<ImageOp::kRandomContrast>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomSaturationGpu, Run<ImageOp::kRandomSaturation>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomHueGpu, Run<ImageOp::kRandomHue>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomColorJitterGpu, Run<ImageOp::kRandomColorJitter>)
WEFT_GPU_KERNEL_EXPORT(ImageAdjustLightingGpu, Run<ImageOp::kAdjustLighting>)
WEFT_GPU_KERNEL_EXPORT(ImageRandomLightingGpu, Run<ImageOp::kRandomLighting>)
WEFT_GPU_KERNEL_EXPORT(ImageResizeGpu, Run<ImageOp::kResize>)
WEFT_GPU_KERNEL_EXPORT(ImageCropGpu, Run<ImageOp::kCrop>)
WEFT_GPU_KERNEL_EXPORT(ImageCropBackwardGpu, Run<ImageOp::kCropBackward>)

}  // namespace cuda
}  // namespace weft
