// slice_like and the legacy Crop, and their backward ops: one strided copy
// each (Note [Ops that are one strided copy] in view_plan.h). The backward ops
// put out_grad back into a zeroed array of data's shape.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/shape/view_plan.h"
#include "core/op/shape/view_plan_cpu.h"
#include "core/op/shape/view_plan_gpu.h"

namespace weft {
namespace {

Shape CropOut(const Params& p, const std::vector<Shape>& in) {
  int64_t top = 0, left = 0;
  return tensor::CropShape(p, in[0], in.size() > 1 ? in[1] : Shape::Unknown(), &top, &left);
}

std::vector<std::string> CropInputs(const Params& p) {
  const int64_t n = p.GetInt("num_args");
  WEFT_CHECK(n == 1 || n == 2, kInvalidArgument) << "Crop: num_args must be 1 (data) or 2 (data, crop_like), got " << n;
  if (n == 1) return {"data"};
  return {"data", "crop_like"};
}

OpDef& WithCropInputs(OpDef& op) {
  op.list_input_names = CropInputs;
  return op;
}

OpDef& CropParams(OpDef& op) {
  return op.add_required_param("num_args", ParamType::kInt,
                               "1: crop to h_w; 2: crop to the height and width of the second input crop_like.")
      .add_param("offset", ParamType::kShape, "(0, 0)", "The (top, left) corner of the crop.")
      .add_param("h_w", ParamType::kShape, "(0, 0)", "The (height, width) of the crop when num_args is 1.")
      .add_param("center_crop", ParamType::kBool, "False", "Crop the centre (offset is then ignored).");
}

WEFT_REGISTER_OP("slice_like").set_compute_gpu(WEFT_GPU(cuda::SliceLikeGpu)).add_method("slice_like")
    .describe("Slices `data` to the shape of `shape_like` along the given axes (all axes when axes=()); each "
              "slice starts at 0.")
    .add_input("data")
    .add_input("shape_like")
    .add_param("axes", ParamType::kShape, "()", "The axes to slice; () slices every axis.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      AssignShape(out, 0, tensor::SliceLikeShape(p, (*in)[0], (*in)[1]), "slice_like: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::SliceLikePlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_backward_slice_like", {og[0], b.in(0)}, b.Attrs("_backward_slice_like")), b.Zeros(b.in(1))};
    });

WEFT_REGISTER_OP("_backward_slice_like").set_compute_gpu(WEFT_GPU(cuda::BackwardSliceLikeGpu))
    .describe("Gradient of slice_like: out_grad in the leading corner of a zeroed array of data's shape (only "
              "data's shape is read).")
    .add_input("out_grad")
    .add_input("data")
    .add_param("axes", ParamType::kShape, "()", "slice_like's axes.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!ShapeOfInput(p, in, out, 1)) return false;
      if ((*in)[0].known()) tensor::SliceLikeShape(p, (*in)[1], (*in)[0]);
      return (*in)[0].known();
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::RunViewPlan(tensor::BackwardSliceLikePlan(p, in[0].shape, out[0].shape), in[0], req[0], out[0]);
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("slice_like", {og[0], b.in(0)}, b.Attrs("slice_like")), b.Zeros(b.in(1))};
    });

WEFT_REGISTER_OP(crop_decl, "Crop");
[[maybe_unused]] OpDef& crop_op = WithCropInputs(CropParams(
    crop_decl.set_compute_gpu(WEFT_GPU(cuda::CropGpu))
        .describe("Crops the height and width (axes 2 and 3) of NCHW `data` to h_w, or to the height and width "
                  "of the second input crop_like, at `offset` or centred.")
        .set_variadic("num_args")))
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      for (const Shape& s : *in)
        if (!s.known()) return false;
      AssignShape(out, 0, CropOut(p, *in), "Crop: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::CropPlan))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      std::vector<NodeEntry> g{b("_backward_Crop", {og[0], b.in(0)}, b.Attrs("_backward_Crop"))};
      if (n->inputs.size() > 1) g.push_back(b.Zeros(b.in(1)));
      return g;
    });

WEFT_REGISTER_OP(backward_crop_decl, "_backward_Crop");
[[maybe_unused]] OpDef& backward_crop_op = CropParams(
    backward_crop_decl.set_compute_gpu(WEFT_GPU(cuda::BackwardCropGpu))
        .describe("Gradient of Crop's data: out_grad at the crop's place in a zeroed array of data's shape "
                  "(only data's shape is read).")
        .add_input("out_grad")
        .add_input("data"))
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return ShapeOfInput(p, in, out, 1) && (*in)[0].known();
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::RunViewPlan(tensor::BackwardCropPlan(p, in[0].shape, out[0].shape), in[0], req[0], out[0]);
    });

}  // namespace
}  // namespace weft
