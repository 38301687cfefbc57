// weft.nd.image's augmentations (MXNet's src/operator/image/image_random.cc):
// flips, random flips, brightness/contrast/saturation/hue jitter, colour
// jitter, and AlexNet-style PCA lighting. Inputs are (H, W, C) images or
// (N, H, W, C) batches of uint8, float32 or float64 pixels; uint8 results are
// clamped to [0, 255] and truncated as MXNet's saturate_cast. The random ones
// draw from the device generator (set_needs_rng; weft.random.seed reproduces
// them). Kernels: image_kernels.h.
#include "core/graph/grad_builder.h"
#include "core/op/image/image_cpu.h"
#include "core/op/image/image_infer.h"
#include "core/op/image/image_gpu.h"

namespace weft {
namespace {

using image::AugOp;
using image::ImageCpu;
using image::ImageOp;

void AddFactors(OpDef& op) {
  op.add_required_param("min_factor", ParamType::kFloat, "Minimum factor.")
      .add_required_param("max_factor", ParamType::kFloat, "Maximum factor.");
}

// A deterministic flip is its own gradient.
FGradient FlipGradient(const char* op) {
  return [op](const NodePtr& n, const std::vector<NodeEntry>& og) {
    GradBuilder b(n);
    return std::vector<NodeEntry>{b(op, {og[0]})};
  };
}

[[maybe_unused]] const bool kImageAugRegistered = [] {
  WEFT_REGISTER_OP(flip_left_right_decl, "_image_flip_left_right");
  AugOp(flip_left_right_decl, "Reverses the columns of an image (H, W, C) or batch (N, H, W, C).")
      .set_compute_cpu(ImageCpu(ImageOp::kFlipLeftRight))
      .set_compute_gpu(WEFT_GPU(cuda::ImageFlipLeftRightGpu))
      .set_gradient(FlipGradient("_image_flip_left_right"));
  WEFT_REGISTER_OP(flip_top_bottom_decl, "_image_flip_top_bottom");
  AugOp(flip_top_bottom_decl, "Reverses the rows of an image (H, W, C) or batch (N, H, W, C).")
      .set_compute_cpu(ImageCpu(ImageOp::kFlipTopBottom))
      .set_compute_gpu(WEFT_GPU(cuda::ImageFlipTopBottomGpu))
      .set_gradient(FlipGradient("_image_flip_top_bottom"));
  WEFT_REGISTER_OP(random_flip_left_right_decl, "_image_random_flip_left_right");
  AugOp(random_flip_left_right_decl, "flip_left_right with probability 1/2, else a copy.")
      .set_compute_cpu(ImageCpu(ImageOp::kRandomFlipLeftRight))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomFlipLeftRightGpu))
      .set_needs_rng();
  WEFT_REGISTER_OP(random_flip_top_bottom_decl, "_image_random_flip_top_bottom");
  AugOp(random_flip_top_bottom_decl, "flip_top_bottom with probability 1/2, else a copy.")
      .set_compute_cpu(ImageCpu(ImageOp::kRandomFlipTopBottom))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomFlipTopBottomGpu))
      .set_needs_rng();

  WEFT_REGISTER_OP(random_brightness_decl, "_image_random_brightness");
  OpDef& bright = AugOp(random_brightness_decl,
                        "Multiplies every pixel by alpha ~ U(min_factor, max_factor).");
  AddFactors(bright);
  bright.set_compute_cpu(ImageCpu(ImageOp::kRandomBrightness))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomBrightnessGpu))
      .set_needs_rng();
  WEFT_REGISTER_OP(random_contrast_decl, "_image_random_contrast");
  OpDef& contrast = AugOp(random_contrast_decl,
                          "x * alpha + (1 - alpha) * mean luma of the image (0.299 R + 0.587 G + 0.114 B), "
                          "alpha ~ U(min_factor, max_factor).");
  AddFactors(contrast);
  contrast.set_compute_cpu(ImageCpu(ImageOp::kRandomContrast))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomContrastGpu))
      .set_needs_rng();
  WEFT_REGISTER_OP(random_saturation_decl, "_image_random_saturation");
  OpDef& sat = AugOp(random_saturation_decl,
                     "x * alpha + (1 - alpha) * the pixel's luma (0.299 R + 0.587 G + 0.114 B), alpha ~ "
                     "U(min_factor, max_factor); 1-channel images are copied.");
  AddFactors(sat);
  sat.set_compute_cpu(ImageCpu(ImageOp::kRandomSaturation))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomSaturationGpu))
      .set_needs_rng();
  WEFT_REGISTER_OP(random_hue_decl, "_image_random_hue");
  OpDef& hue = AugOp(random_hue_decl,
                     "Rotates the hue (HLS space) by alpha * 360 degrees, alpha ~ U(min_factor, max_factor); "
                     "1-channel images are copied.");
  AddFactors(hue);
  hue.set_compute_cpu(ImageCpu(ImageOp::kRandomHue))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomHueGpu))
      .set_needs_rng();
  WEFT_REGISTER_OP(random_color_jitter_decl, "_image_random_color_jitter");
  AugOp(random_color_jitter_decl,
        "Brightness, contrast, saturation and hue jitter in a random order; each with amount a > 0 draws its "
        "factor from 1 + U(-a, a) (hue: U(-a, a)).")
      .add_required_param("brightness", ParamType::kFloat, "How much to jitter brightness.")
      .add_required_param("contrast", ParamType::kFloat, "How much to jitter contrast.")
      .add_required_param("saturation", ParamType::kFloat, "How much to jitter saturation.")
      .add_required_param("hue", ParamType::kFloat, "How much to jitter hue.")
      .set_compute_cpu(ImageCpu(ImageOp::kRandomColorJitter))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomColorJitterGpu))
      .set_needs_rng();
  WEFT_REGISTER_OP(adjust_lighting_decl, "_image_adjust_lighting");
  AugOp(adjust_lighting_decl,
        "Adjust the lighting level of the input. Follow the AlexNet style: adds eigvec * (alpha * eigval) of "
        "ImageNet's RGB covariance to every pixel.")
      .add_required_param("alpha", ParamType::kFloatTuple, "The lighting alphas for the R, G, B channels.")
      .set_compute_cpu(ImageCpu(ImageOp::kAdjustLighting))
      .set_compute_gpu(WEFT_GPU(cuda::ImageAdjustLightingGpu));
  WEFT_REGISTER_OP(random_lighting_decl, "_image_random_lighting");
  AugOp(random_lighting_decl,
        "Randomly add PCA noise. Follow the AlexNet style: adjust_lighting with alpha ~ N(0, alpha_std) per "
        "channel.")
      .add_param("alpha_std", ParamType::kFloat, "0.05", "Level of the lighting noise.")
      .set_compute_cpu(ImageCpu(ImageOp::kRandomLighting))
      .set_compute_gpu(WEFT_GPU(cuda::ImageRandomLightingGpu))
      .set_needs_rng();
  return true;
}();

}  // namespace
}  // namespace weft
