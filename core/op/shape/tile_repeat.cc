// tile and repeat, and their backward ops (each data element's gradient sums
// the copies made of it). One strided copy each (Note [Ops that are one
// strided copy] in view_plan.h).
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

bool ForwardShape(Shape (*fn)(const Params&, const Shape&), const char* op, const Params& p, std::vector<Shape>* in,
                  std::vector<Shape>* out) {
  if (!(*in)[0].known()) return false;
  AssignShape(out, 0, fn(p, (*in)[0]), std::string(op) + ": output");
  return true;
}

void SumCompute(tensor::SumPlan (*fn)(const Params&, const Shape&, const Shape&), const Params& p,
                const std::vector<TensorView>& in, const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  tensor_cpu::RunSumPlan(fn(p, in[0].shape, out[0].shape), in[0], req[0], out[0]);
}

WEFT_REGISTER_OP("tile").set_compute_gpu(WEFT_GPU(cuda::TileGpu)).add_method("tile")
    .describe("Repeats the whole array several times.\n\n"
              "With reps of length d and data of n dimensions: if d < n, reps is promoted to n dims by "
              "prepending 1s; if d > n, data is promoted to d dims by prepending axes of size 1. Output "
              "dimension i is data's times reps[i].")
    .add_input("data")
    .add_required_param("reps", ParamType::kShape,
                        "The number of times to repeat the array along each axis (non-negative).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return ForwardShape(tensor::TileShape, "tile", p, in, out);
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::TilePlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_backward_tile", {og[0], b.in(0)}, b.Attrs("_backward_tile"))};
    });

WEFT_REGISTER_OP("_backward_tile").set_compute_gpu(WEFT_GPU(cuda::BackwardTileGpu))
    .describe("Gradient of tile: each element of `data` gets the sum of out_grad over its copies (only data's "
              "shape is read).")
    .add_input("out_grad")
    .add_input("data")
    .add_required_param("reps", ParamType::kShape, "tile's reps.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!ShapeOfInput(p, in, out, 1)) return false;
      AssignShape(in, 0, tensor::TileShape(p, (*in)[1]), "_backward_tile: input 'out_grad'");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      SumCompute(tensor::BackwardTilePlan, p, in, req, out);
    })
    // Linear in out_grad: the second-order gradient tiles the incoming one.
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("tile", {og[0]}, b.Attrs("tile")), b.Zeros(b.in(1))};
    });

WEFT_REGISTER_OP("repeat").set_compute_gpu(WEFT_GPU(cuda::RepeatGpu)).add_method("repeat")
    .describe("Repeats each element of an array after itself.\n\n"
              "With axis=None the input is flattened and the output is 1-D; otherwise each element is "
              "repeated `repeats` times along `axis`.")
    .add_input("data")
    .add_required_param("repeats", ParamType::kInt, "The number of repetitions of each element (non-negative).")
    .add_optional_param("axis", ParamType::kInt, "The axis to repeat along; None repeats the flattened input.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return ForwardShape(tensor::RepeatShape, "repeat", p, in, out);
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::RepeatPlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_backward_repeat", {og[0], b.in(0)}, b.Attrs("_backward_repeat"))};
    });

WEFT_REGISTER_OP("_backward_repeat").set_compute_gpu(WEFT_GPU(cuda::BackwardRepeatGpu))
    .describe("Gradient of repeat: each element of `data` gets the sum of out_grad over its repetitions (only "
              "data's shape is read).")
    .add_input("out_grad")
    .add_input("data")
    .add_required_param("repeats", ParamType::kInt, "repeat's repeats.")
    .add_optional_param("axis", ParamType::kInt, "repeat's axis.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!ShapeOfInput(p, in, out, 1)) return false;
      AssignShape(in, 0, tensor::RepeatShape(p, (*in)[1]), "_backward_repeat: input 'out_grad'");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      SumCompute(tensor::BackwardRepeatPlan, p, in, req, out);
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("repeat", {og[0]}, b.Attrs("repeat")), b.Zeros(b.in(1))};
    });

}  // namespace
}  // namespace weft
