// _split_v2 (split_v2): parts of an array along an axis, at split points
// (indices) or in equal sections; each part is one strided copy (Note [Ops that
// are one strided copy] in view_plan.h). mx.nd.split_v2's Python signature
// (indices_or_sections) and method are bindings/python/weft/_split_v2.py's.
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

WEFT_REGISTER_OP("_split_v2").add_alias("split_v2").set_compute_gpu(WEFT_GPU(cuda::SplitV2Gpu)).add_method("split_v2")
    .describe("Splits an array along an axis: at the split points `indices` (part i is [indices[i], "
              "indices[i+1]), the last part runs to the end), or into `sections` equal parts when sections > 0. "
              "squeeze_axis removes the axis from parts of size 1.")
    .add_input("data")
    .add_param("indices", ParamType::kShape, "()", "The split points along the axis (increasing).")
    .add_param("axis", ParamType::kInt, "0", "The axis to split along.")
    .add_param("squeeze_axis", ParamType::kBool, "False", "Remove the split axis (each part must have size 1).")
    .add_param("sections", ParamType::kInt, "0", "The number of equal parts; 0 splits at `indices`.")
    .set_num_outputs(tensor::SplitV2NumOutputs)
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      const std::vector<Shape> s = tensor::SplitV2Shapes(p, (*in)[0]);
      WEFT_CHECK(s.size() == out->size(), kInternal) << "_split_v2: " << s.size() << " parts for " << out->size()
                                                     << " outputs";
      for (size_t i = 0; i < s.size(); ++i) AssignShape(out, i, s[i], "_split_v2: output " + std::to_string(i));
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      for (size_t i = 0; i < out.size(); ++i)
        tensor_cpu::RunViewPlan(tensor::SplitV2Plan(p, in[0].shape, static_cast<int>(i)), in[0], req[i], out[i]);
    })
    // The parts joined back along the axis (a part before the first split
    // point, which no output holds, gets a zero gradient).
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      const Params& p = n->params;
      const std::string axis = std::to_string(p.GetInt("axis"));
      std::vector<NodeEntry> parts;
      const std::vector<int64_t>& idx = p.GetTuple("indices");
      if (p.GetInt("sections") <= 0 && !idx.empty() && idx[0] > 0)
        parts.push_back(b.Zeros(b("slice_axis", {b.in(0)}, {{"axis", axis}, {"begin", "0"},
                                                            {"end", std::to_string(idx[0])}})));
      for (const NodeEntry& g : og)
        parts.push_back(p.GetBool("squeeze_axis") ? b("expand_dims", {g}, {{"axis", axis}}) : g);
      if (parts.size() == 1) return {parts[0]};
      return {b("Concat", parts, {{"num_args", std::to_string(parts.size())}, {"dim", axis}})};
    });

}  // namespace
}  // namespace weft
