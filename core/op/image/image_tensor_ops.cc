// weft.nd.image's conversions and geometry (MXNet's src/operator/image):
// to_tensor (HWC [0, 255] -> CHW float32 [0, 1]), normalize (per-channel
// (x - mean) / std on CHW), resize (nearest or bilinear, OpenCV's sampling) and
// crop, with the gradients MXNet defines for normalize and crop. Kernels:
// image_kernels.h.
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/image/image_cpu.h"
#include "core/op/image/image_infer.h"
#include "core/op/image/image_gpu.h"

namespace weft {
namespace {

using image::ImageCpu;
using image::ImageDims;
using image::ImageOp;

bool ToTensorShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  const Shape& s = (*in)[0];
  if (!s.known()) {
    const Shape& o = (*out)[0];
    if (!o.known()) return false;
    const ImageDims d = image::ChwDims(o, op);  // backward: (N,) C, H, W -> (N,) H, W, C
    AssignShape(in, 0, image::HwcShape(o, d.h, d.w, d.c), op + ": input 'data'");
    return true;
  }
  const ImageDims d = image::HwcDims(s, op);
  AssignShape(out, 0, s.ndim() == 4 ? Shape{d.n, d.c, d.h, d.w} : Shape{d.c, d.h, d.w}, op + ": output");
  return true;
}

bool NormalizeShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!SameShapeInfer(*p.op(), p, in, out)) return false;
  const std::string& op = p.op()->name;
  if ((*in)[0].known()) {
    const ImageDims d = image::ChwDims((*in)[0], op);
    image::PerChannel(p, "mean", d.c, op);
    image::PerChannel(p, "std", d.c, op);
  }
  return true;
}

bool FloatSameType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  if (!SameTypeInfer(*p.op(), p, in, out)) return false;
  const DType t = (*in)[0];
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << p.op()->name << ": input 'data' has dtype " << DTypeName(t) << "; float32 or float64 is expected";
  return true;
}

void AddNormalizeParams(OpDef& op) {
  op.add_param("mean", ParamType::kFloatTuple, "(0.0, 0.0, 0.0, 0.0)",
               "Sequence of means for each channel. Default value is 0.")
      .add_param("std", ParamType::kFloatTuple, "(1.0, 1.0, 1.0, 1.0)",
                 "Sequence of standard deviations for each channel. Default value is 1.");
}

void AddCropParams(OpDef& op) {
  op.add_required_param("x", ParamType::kInt, "Left boundary of the cropping area.")
      .add_required_param("y", ParamType::kInt, "Top boundary of the cropping area.")
      .add_required_param("width", ParamType::kInt, "Width of the cropping area.")
      .add_required_param("height", ParamType::kInt, "Height of the cropping area.");
}

[[maybe_unused]] const bool kImageTensorRegistered = [] {
  WEFT_REGISTER_OP(to_tensor_decl, "_image_to_tensor")
      .describe("Converts an image NDArray of shape (H x W x C) or (N x H x W x C) with values in the range "
                "[0, 255] to a tensor NDArray of shape (C x H x W) or (N x C x H x W) with values in the range "
                "[0, 1] (float32).")
      .add_input("data")
      .set_infer_shape(ToTensorShape)
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        AssignType(out, 0, DType::kFloat32, p.op()->name + ": output");
        return (*in)[0] != DType::kUnknown;
      })
      .set_compute_cpu(ImageCpu(ImageOp::kToTensor))
      .set_compute_gpu(WEFT_GPU(cuda::ImageToTensorGpu));

  WEFT_REGISTER_OP(norm, "_image_normalize");
  norm.describe("Normalize an tensor of shape (C x H x W) or (N x C x H x W) with mean and standard deviation: "
                "output[c] = (input[c] - mean[c]) / std[c]. If mean or std is a single value, it applies to "
                "every channel.")
      .add_input("data");
  AddNormalizeParams(norm);
  norm.set_infer_shape(NormalizeShape)
      .set_infer_type(FloatSameType)
      .add_inplace(0, 0)
      .set_compute_cpu(ImageCpu(ImageOp::kNormalize))
      .set_compute_gpu(WEFT_GPU(cuda::ImageNormalizeGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_image_normalize", {og[0]});
      });
  WEFT_REGISTER_OP(norm_bwd, "_backward_image_normalize");
  norm_bwd.describe("Gradient of _image_normalize: out_grad[c] / std[c].").add_input("out_grad");
  AddNormalizeParams(norm_bwd);
  norm_bwd.set_infer_shape(NormalizeShape)
      .set_infer_type(FloatSameType)
      .set_compute_cpu(ImageCpu(ImageOp::kNormalizeBackward))
      .set_compute_gpu(WEFT_GPU(cuda::ImageNormalizeBackwardGpu));

  WEFT_REGISTER_OP(resize_decl, "_image_resize")
      .describe("Resize an image NDArray of shape (H x W x C) or (N x H x W x C) to the given size. size is "
                "(width, height), or one edge: both edges, or with keep_ratio the shorter edge. interp 0 is "
                "nearest-neighbour, 1 (default) bilinear, sampled as OpenCV's INTER_NEAREST/INTER_LINEAR "
                "(uint8 results rounded).")
      .add_input("data")
      .add_param("size", ParamType::kShape, "()", "Size of new image. Could be (width, height) or (size)")
      .add_param("keep_ratio", ParamType::kBool, "False",
                 "Whether to resize the short edge or both edges to `size`, if size is give as an integer.")
      .add_param("interp", ParamType::kInt, "1",
                 "Interpolation method for resizing: 0 nearest neighbour, 1 bilinear (2 area, 3 bicubic and 4 "
                 "Lanczos are refused).")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& s = (*in)[0];
        if (!s.known()) return false;
        const ImageDims d = image::HwcDims(s, p.op()->name);
        int64_t oh = 0, ow = 0;
        image::ResizeTarget(p, d, p.op()->name, &oh, &ow);
        AssignShape(out, 0, image::HwcShape(s, oh, ow, d.c), p.op()->name + ": output");
        return true;
      })
      .set_infer_type(image::SameImageType)
      .set_compute_cpu(ImageCpu(ImageOp::kResize))
      .set_compute_gpu(WEFT_GPU(cuda::ImageResizeGpu));

  WEFT_REGISTER_OP(crop, "_image_crop");
  crop.describe("Crop an image NDArray of shape (H x W x C) or (N x H x W x C) to the box of the given width "
                "and height whose top-left pixel is (x, y).")
      .add_input("data");
  AddCropParams(crop);
  crop.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& s = (*in)[0];
        if (!s.known()) return false;
        const ImageDims d = image::HwcDims(s, p.op()->name);
        const image::Box b = image::CropBox(p, d, p.op()->name);
        AssignShape(out, 0, image::HwcShape(s, b.h, b.w, d.c), p.op()->name + ": output");
        return true;
      })
      .set_infer_type(image::SameImageType)
      .set_compute_cpu(ImageCpu(ImageOp::kCrop))
      .set_compute_gpu(WEFT_GPU(cuda::ImageCropGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);
        return std::vector<NodeEntry>{b("_backward_image_crop", {og[0], b.in(0)}, b.Attrs("_backward_image_crop"))};
      });
  WEFT_REGISTER_OP(crop_bwd, "_backward_image_crop");
  crop_bwd.describe("Gradient of _image_crop: out_grad placed at the box in zeros shaped like data.")
      .add_input("out_grad")
      .add_input("data");
  AddCropParams(crop_bwd);
  crop_bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapeOfInput(p, in, out, 1)) return false;
        if (!(*in)[0].known()) return true;
        // The kernel copies out_grad into the box: it must be the forward's crop of data.
        const Shape& s = (*in)[1];
        const ImageDims d = image::HwcDims(s, p.op()->name);
        const image::Box b = image::CropBox(p, d, p.op()->name);
        const Shape want = image::HwcShape(s, b.h, b.w, d.c);
        WEFT_CHECK((*in)[0] == want, kShape) << p.op()->name << ": out_grad has shape " << (*in)[0].ToString()
                                             << ", the crop of data " << s.ToString() << " is " << want.ToString();
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0);
      })
      .set_compute_cpu(ImageCpu(ImageOp::kCropBackward))
      .set_compute_gpu(WEFT_GPU(cuda::ImageCropBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
