// depth_to_space and space_to_depth (MXNet's DCR layout): one strided copy
// each (Note [Ops that are one strided copy] in view_plan.h); each is the
// other's gradient.
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/shape/view_plan.h"
#include "core/op/shape/view_plan_cpu.h"
#include "core/op/shape/view_plan_gpu.h"

namespace weft {
namespace {

// Forward from the input; backward from the output through the inverse op.
bool InferPair(Shape (*fwd)(const Params&, const Shape&), Shape (*inv)(const Params&, const Shape&), const char* op,
               const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known() && (*out)[0].known()) AssignShape(in, 0, inv(p, (*out)[0]), std::string(op) + ": input 'data'");
  if (!(*in)[0].known()) return false;
  AssignShape(out, 0, fwd(p, (*in)[0]), std::string(op) + ": output");
  return true;
}

WEFT_REGISTER_OP("depth_to_space").set_compute_gpu(WEFT_GPU(cuda::DepthToSpaceGpu)).add_method("depth_to_space")
    .describe("Moves blocks of channels into space: (N, C, H, W) -> (N, C / b^2, H * b, W * b).\n\n"
              "x' = reshape(data, (N, b, b, C / b^2, H, W)), x'' = transpose(x', (0, 3, 4, 1, 5, 2)), "
              "out = reshape(x'', (N, C / b^2, H * b, W * b)).")
    .add_input("data")
    .add_required_param("block_size", ParamType::kInt, "The block size b (positive).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return InferPair(tensor::DepthToSpaceShape, tensor::SpaceToDepthShape, "depth_to_space", p, in, out);
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::DepthToSpacePlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("space_to_depth", {og[0]}, b.Attrs("space_to_depth"))};
    });

WEFT_REGISTER_OP("space_to_depth").set_compute_gpu(WEFT_GPU(cuda::SpaceToDepthGpu)).add_method("space_to_depth")
    .describe("Moves blocks of space into channels: (N, C, H, W) -> (N, C * b^2, H / b, W / b).\n\n"
              "x' = reshape(data, (N, C, H / b, b, W / b, b)), x'' = transpose(x', (0, 3, 5, 1, 2, 4)), "
              "out = reshape(x'', (N, C * b^2, H / b, W / b)).")
    .add_input("data")
    .add_required_param("block_size", ParamType::kInt, "The block size b (positive).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return InferPair(tensor::SpaceToDepthShape, tensor::DepthToSpaceShape, "space_to_depth", p, in, out);
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::SpaceToDepthPlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("depth_to_space", {og[0]}, b.Attrs("depth_to_space"))};
    });

}  // namespace
}  // namespace weft
