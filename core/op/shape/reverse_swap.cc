// reverse (flip) and SwapAxis (swapaxes): one strided copy each (Note [Ops
// that are one strided copy] in view_plan.h); each is its own gradient.
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

WEFT_REGISTER_OP("reverse").add_alias("flip").set_compute_gpu(WEFT_GPU(cuda::ReverseGpu)).add_method("flip")
    .describe("Reverses the order of elements along the given axes; the shape is kept.")
    .add_input("data")
    .add_required_param("axis", ParamType::kShape, "The axes to reverse (each named once).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      // The shape is kept, so either side gives the other.
      if (!(*in)[0].known()) AssignShape(in, 0, (*out)[0], "reverse: input 'data'");
      if (!(*in)[0].known()) return false;
      tensor::ReverseAxes(p, (*in)[0].ndim());
      AssignShape(out, 0, (*in)[0], "reverse: output");
      return true;
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::ReversePlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("reverse", {og[0]}, b.Attrs("reverse"))};
    });

WEFT_REGISTER_OP("SwapAxis").add_alias("swapaxes").set_compute_gpu(WEFT_GPU(cuda::SwapAxisGpu)).add_method("swapaxes")
    .describe("Interchanges two axes of an array.")
    .add_input("data")
    .add_param("dim1", ParamType::kInt, "0", "The first axis to swap.")
    .add_param("dim2", ParamType::kInt, "0", "The second axis to swap.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      // Swapping is its own inverse: the output's shape gives the input's.
      if (!(*in)[0].known() && (*out)[0].known())
        AssignShape(in, 0, tensor::SwapAxisShape(p, (*out)[0]), "SwapAxis: input 'data'");
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, tensor::SwapAxisShape(p, (*in)[0]), "SwapAxis: output");
      return true;
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::SwapAxisPlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("SwapAxis", {og[0]}, b.Attrs("SwapAxis"))};
    });

}  // namespace
}  // namespace weft
