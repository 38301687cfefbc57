// topk, sort, argsort and _backward_topk. The order of elements is Note [Sort
// order] (topk_rules.h); ret_typ 'value' and sort keep the indices they chose as
// a hidden output, which their gradient scatters out_grad through.
#include <map>
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/sort/topk_cpu.h"
#include "core/op/sort/topk_rules.h"
#include "core/op/sort/topk_gpu.h"

namespace weft {
namespace {

// axis: an int, -1 by default, or None (the flattened input).
void AddAxis(OpDef* op) {
  op->add_param("axis", ParamType::kInt, "-1", "The axis to sort along; None sorts the flattened input.");
  op->params.back().optional = true;
}

bool InferShapes(const char* op, const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known()) {
    // Only the mask keeps data's shape.
    if (std::string(op) == "topk" && p.GetString("ret_typ") == "mask")
      AssignShape(in, 0, (*out)[0], std::string(op) + ": input 'data'");
    if (!(*in)[0].known()) return false;
  }
  const tensor::TopKPlan t = tensor::MakeTopKPlan(op, p, (*in)[0]);
  const std::vector<Shape> s = tensor::TopKOutShapes(t, (*in)[0]);
  for (size_t i = 0; i < out->size(); ++i) AssignShape(out, i, s[i], std::string(op) + ": output " + std::to_string(i));
  return true;
}

bool InferTypes(const char* op, const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const tensor::TopKPlan t = tensor::MakeTopKPlan(op, p, nullptr);
  if ((*in)[0] == DType::kUnknown && t.ret != tensor::TopKRet::kIndices)
    AssignType(in, 0, (*out)[0], std::string(op) + ": input 'data'");
  const std::vector<DType> d = tensor::TopKOutTypes(t, (*in)[0]);
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, d[i], std::string(op) + ": output " + std::to_string(i));
  return (*in)[0] != DType::kUnknown;
}

FCompute Kernel(const char* op) {
  return [op](const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
    tensor_cpu::TopKCPU(tensor::MakeTopKPlan(op, p, in[0].shape), in[0], req, out);
  };
}

int NumOutputs(const Params& p) {
  const std::string& r = p.GetString("ret_typ");
  return r == "indices" || r == "mask" ? 1 : 2;
}

[[maybe_unused]] const bool kTopKRegistered = [] {
  WEFT_REGISTER_OP(op, "topk").set_compute_gpu(WEFT_GPU(cuda::TopKGpu)).add_method("topk");
  op.describe("The top k elements along an axis (the largest unless is_ascend).\n\n"
              "ret_typ 'value' gives their values, 'indices' their positions along the axis (in `dtype`), "
              "'both' the values and the positions, 'mask' an array of data's shape with 1 at the chosen "
              "elements and 0 elsewhere. k < 1 keeps every element (a full sort).")
      .add_input("data");
  AddAxis(&op);
  op.add_param("k", ParamType::kInt, "1", "How many elements to keep; k < 1 keeps all of them.")
      .add_enum_param("ret_typ", {"both", "indices", "mask", "value"}, "indices", "What to return.")
      .add_param("is_ascend", ParamType::kBool, "False", "Keep the smallest elements instead of the largest.")
      .add_param("dtype", ParamType::kDType, "float32", "The dtype of the indices output.")
      .set_num_outputs(NumOutputs)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return InferShapes("topk", p, in, out);
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return InferTypes("topk", p, in, out);
      })
      .set_compute_cpu(Kernel("topk"))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        const std::string& r = n->params.GetString("ret_typ");
        if (r == "indices" || r == "mask") return ZeroGradients(n, og);
        GradBuilder b(n);
        return {b("_backward_topk", {og[0], b.out(1), b.in(0)}, b.Attrs("_backward_topk"))};
      });
  op.num_visible_outputs_fn = [](const Params& p) { return p.GetString("ret_typ") == "both" ? 2 : 1; };
  return true;
}();

[[maybe_unused]] const bool kSortRegistered = [] {
  WEFT_REGISTER_OP(op, "sort").set_compute_gpu(WEFT_GPU(cuda::SortGpu)).add_method("sort");
  op.describe("The elements sorted along an axis (ascending unless is_ascend=False).").add_input("data");
  AddAxis(&op);
  op.add_param("is_ascend", ParamType::kBool, "True", "Ascending order; False sorts in descending order.")
      .set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) AssignShape(in, 0, (*out)[0], "sort: input 'data'");
        return InferShapes("sort", p, in, out);
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return InferTypes("sort", p, in, out);
      })
      .set_compute_cpu(Kernel("sort"))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        std::map<std::string, std::string> a = b.Attrs("_backward_topk");
        a["k"] = "0";
        a["ret_typ"] = "value";
        return {b("_backward_topk", {og[0], b.out(1), b.in(0)}, a)};
      });
  op.num_visible_outputs = 1;
  return true;
}();

[[maybe_unused]] const bool kArgSortRegistered = [] {
  WEFT_REGISTER_OP(op, "argsort").set_compute_gpu(WEFT_GPU(cuda::ArgSortGpu)).add_method("argsort");
  op.describe("The positions that sort the elements along an axis (ascending unless is_ascend=False), in `dtype`.")
      .add_input("data");
  AddAxis(&op);
  op.add_param("is_ascend", ParamType::kBool, "True", "Ascending order; False sorts in descending order.")
      .add_param("dtype", ParamType::kDType, "float32", "The dtype of the output.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return InferShapes("argsort", p, in, out);
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return InferTypes("argsort", p, in, out);
      })
      .set_compute_cpu(Kernel("argsort"))
      .set_gradient(ZeroGradients);
  return true;
}();

[[maybe_unused]] const bool kBackwardTopKRegistered = [] {
  WEFT_REGISTER_OP(op, "_backward_topk").set_compute_gpu(WEFT_GPU(cuda::BackwardTopKGpu));
  op.describe("Gradient of topk (ret_typ 'value' or 'both') and sort: out_grad added at the positions in "
              "`indices` of a zeroed array of data's shape (only data's shape is read).")
      .add_input("out_grad")
      .add_input("indices")
      .add_input("data");
  AddAxis(&op);
  op.add_param("k", ParamType::kInt, "1", "topk's k.")
      .add_enum_param("ret_typ", {"both", "indices", "mask", "value"}, "indices", "topk's ret_typ.")
      .add_param("is_ascend", ParamType::kBool, "False", "topk's is_ascend.")
      .add_param("dtype", ParamType::kDType, "float32", "topk's dtype.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[2].known()) return false;
        const tensor::TopKPlan t = tensor::MakeTopKPlan("topk", p, (*in)[2]);
        const Shape kept = tensor::TopKOutShapes(t, (*in)[2]).back();
        AssignShape(in, 0, kept, "_backward_topk: input 'out_grad'");
        AssignShape(in, 1, kept, "_backward_topk: input 'indices'");
        AssignShape(out, 0, (*in)[2], "_backward_topk: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0);
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        tensor_cpu::TopKBackwardCPU(tensor::MakeTopKPlan("topk", p, in[2].shape), in[0], in[1], req[0], out[0]);
      });
  return true;
}();

}  // namespace
}  // namespace weft
