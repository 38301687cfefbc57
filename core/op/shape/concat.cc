// Joining and splitting arrays: Concat (along an existing axis), stack (along
// a new axis) and split / SliceChannel (into equal parts). Kernels:
// core/op/shape/concat_cpu.cc.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/shape/concat_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/shape/concat_slice_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

std::string ArgName(size_t i) { return "arg" + std::to_string(i); }

void CheckNumArgs(const Params& p, const char* op) {
  WEFT_CHECK(p.GetInt("num_args") >= 1, kInvalidArgument)
      << op << ": parameter 'num_args' must be at least 1, got " << p.GetInt("num_args");
}

// ---- Concat ----

// MXNet's ConcatShape: with the output known, the one unknown input is the
// rest of it along dim (the forward check below then runs on every input).
void ConcatInputFromOutput(const Params& p, std::vector<Shape>* in, const Shape& o) {
  size_t unknown = in->size();
  for (size_t i = 0; i < in->size(); ++i)
    if (!(*in)[i].known()) {
      if (unknown != in->size()) return;  // two unknown inputs
      unknown = i;
    }
  if (unknown == in->size()) return;
  const int axis = tensor::NormalizeAxis(p.GetInt("dim"), o.ndim(), "Concat", "output", 0, "dim");
  Shape s = o;
  for (size_t i = 0; i < in->size(); ++i) {
    if (i == unknown) continue;
    const Shape& k = (*in)[i];
    WEFT_CHECK(k.ndim() == o.ndim(), kShape) << "Concat: input '" << ArgName(i) << "' has shape "
                                            << k.ToString() << ", the output " << o.ToString();
    // Checked before subtracting, so that a run of huge inputs cannot wrap s[axis] (signed overflow).
    WEFT_CHECK(k[axis] >= 0 && k[axis] <= s[axis], kShape) << "Concat: the known inputs are longer along dim "
                                                           << axis << " than the output " << o.ToString();
    s[axis] -= k[axis];
  }
  (*in)[unknown] = s;
}

// The forward rule, shared with _rnn_param_concat (errors name `op`).
bool ConcatForwardShape(const char* op, const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!tensor::AllKnown(*in)) return false;
  const Shape& first = (*in)[0];
  const int axis = tensor::NormalizeAxis(p.GetInt("dim"), first.ndim(), op, "arg0", 0, "dim");
  Shape o = first;
  o[axis] = 0;
  const std::string joined = std::string(op) + ": joined axis";
  for (size_t i = 0; i < in->size(); ++i) {
    const Shape& s = (*in)[i];
    bool ok = s.ndim() == first.ndim();
    for (int k = 0; ok && k < s.ndim(); ++k) ok = k == axis || s[k] == first[k];
    WEFT_CHECK(ok, kShape) << op << ": input '" << ArgName(i) << "' has shape " << s.ToString()
                           << ", which does not match shape " << first.ToString() << " of 'arg0' outside dim "
                           << axis;
    o[axis] = CheckedAdd(o[axis], s[axis], joined.c_str());  // Note [Checked shape arithmetic]
  }
  AssignShape(out, 0, o, std::string(op) + ": output");
  return true;
}

bool ConcatShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  CheckNumArgs(p, "Concat");
  if ((*out)[0].known()) ConcatInputFromOutput(p, in, (*out)[0]);
  return ConcatForwardShape("Concat", p, in, out);
}

void ConcatCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int axis = tensor::NormalizeAxis(p.GetInt("dim"), out[0].ndim(), "Concat", "arg0", 0, "dim");
  tensor_cpu::ConcatCPU(in, out[0].shape.ProdRange(0, axis), req[0], out[0]);
}

// Each input gets its part of out_grad (the inputs give the part sizes).
std::vector<NodeEntry> ConcatGradient(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  std::vector<NodeEntry> in = {og[0]};
  in.insert(in.end(), n->inputs.begin(), n->inputs.end());
  const NodePtr g = b.NodeWithAttrs("_backward_Concat", in);
  std::vector<NodeEntry> r;
  for (uint32_t i = 0; i < n->inputs.size(); ++i) r.push_back(OutputOf(g, i));
  return r;
}

// Concat and _rnn_param_concat: one schema and the same kernels and gradient;
// they differ only in shape inference.
OpDef& DeclareConcat(const char* name, const char* doc, FInferShape infer) {
  WEFT_REGISTER_OP(op, name);
  return op.set_compute_gpu(WEFT_GPU(cuda::ConcatGpu))
      .describe(doc)
      .set_variadic("num_args")
      .add_required_param("num_args", ParamType::kInt, "Number of inputs to join.")
      .add_param("dim", ParamType::kInt, "1", "The axis along which to join (negative counts from the end).")
      .set_infer_shape(std::move(infer))
      .set_compute_cpu(ConcatCompute)
      .set_gradient(ConcatGradient);
}

[[maybe_unused]] OpDef& reg_concat =
    DeclareConcat("Concat",
                  "Joins arrays along an existing axis `dim`.\n\n"
                  "All inputs must have the same shape except along dim, e.g. (2, 3) and (2, 4) with "
                  "dim=1 give (2, 7).",
                  ConcatShape)
        .add_alias("concat");

// ---- _rnn_param_concat ----

// Note [RNN parameter concat]
// Gluon 1.9.1's RNN layers join their flattened weights with
// _rnn_param_concat (Gluon 1.9.1's _RNNLayer._forward_kernel), Concat's
// kernels under MXNet's RNNParamConcatShape (src/operator/nn/concat.cc): with
// the output known (the fused RNN op sizes its `parameters` from data), up to
// two unknown inputs each get an equal share of what the known inputs leave
// along dim. Two, because a bidirectional layer's l0 and r0 i2h weights are
// the ones whose input size only data gives, and they are equal. Concat
// itself keeps MXNet's rule of at most one unknown input. Each weight reaches
// the concat through Reshape(-1) from a __shape__ like (16, 0); the graph pass
// then recovers the 0 from the share (Note [Partial shapes], step 4).
void RNNParamConcatInputsFromOutput(const Params& p, std::vector<Shape>* in, const Shape& o) {
  std::vector<size_t> unknown;
  for (size_t i = 0; i < in->size(); ++i)
    if (!(*in)[i].known()) unknown.push_back(i);
  if (unknown.empty()) return;
  WEFT_CHECK(unknown.size() <= 2, kShape) << "_rnn_param_concat: expects at most 2 inputs of unknown shape "
                                              "given the output's, got "
                                           << unknown.size();
  const int axis =
      tensor::NormalizeAxis(p.GetInt("dim"), o.ndim(), "_rnn_param_concat", "output", 0, "dim");
  int64_t rest = o[axis];
  for (size_t i = 0; i < in->size(); ++i) {
    const Shape& k = (*in)[i];
    if (!k.known()) continue;
    WEFT_CHECK(k.ndim() == o.ndim(), kShape) << "_rnn_param_concat: input '" << ArgName(i) << "' has shape "
                                             << k.ToString() << ", the output " << o.ToString();
    WEFT_CHECK(k[axis] >= 0 && k[axis] <= rest, kShape)
        << "_rnn_param_concat: the known inputs are longer along dim " << axis << " than the output "
        << o.ToString();
    rest -= k[axis];
  }
  const int64_t parts = static_cast<int64_t>(unknown.size());
  WEFT_CHECK(rest % parts == 0, kShape) << "_rnn_param_concat: the " << rest << " elements along dim " << axis
                                        << " that the known inputs leave of the output " << o.ToString()
                                        << " do not split equally between its " << parts << " unknown inputs";
  Shape s = o;
  s[axis] = rest / parts;
  for (size_t i : unknown) (*in)[i] = s;
}

bool RNNParamConcatShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  CheckNumArgs(p, "_rnn_param_concat");
  if ((*out)[0].known()) RNNParamConcatInputsFromOutput(p, in, (*out)[0]);
  return ConcatForwardShape("_rnn_param_concat", p, in, out);
}

[[maybe_unused]] OpDef& reg_rnn_param_concat = DeclareConcat(
    "_rnn_param_concat",
    "Joins arrays along an existing axis `dim` as Concat does; Gluon's RNN layers join their "
    "flattened weights with it. Shape inference also fills up to two unknown inputs from the "
    "output, each with an equal share of what the known inputs leave along dim.",
    RNNParamConcatShape);

// ---- stack ----

WEFT_REGISTER_OP("stack").set_compute_gpu(WEFT_GPU(cuda::StackGpu))
    .describe("Joins arrays of one shape along a new axis: n inputs of shape (2, 3) with axis=0 "
              "give (n, 2, 3).")
    .set_variadic("num_args")
    .add_required_param("num_args", ParamType::kInt, "Number of inputs to stack.")
    .add_param("axis", ParamType::kInt, "0",
               "Position of the new axis in the result, in [-ndim-1, ndim] of the inputs.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      CheckNumArgs(p, "stack");
      Shape known = Shape::Unknown();
      for (const Shape& s : *in)
        if (s.known()) { known = s; break; }
      if (!known.known()) return false;
      for (size_t i = 0; i < in->size(); ++i) AssignShape(in, i, known, "stack: input '" + ArgName(i) + "'");
      const int axis = tensor::NormalizeAxis(p.GetInt("axis"), known.ndim(), "stack", "arg0", 1);
      std::vector<int64_t> o = known.dims();
      o.insert(o.begin() + axis, static_cast<int64_t>(in->size()));
      AssignShape(out, 0, Shape(o), "stack: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[0].ndim(), "stack", "arg0", 1);
      tensor_cpu::ConcatCPU(in, in[0].shape.ProdRange(0, axis), req[0], out[0]);
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
      // Split out_grad along the new axis, dropping it.
      GradBuilder b(n);
      const std::string count = std::to_string(n->inputs.size());
      const std::string axis = std::to_string(n->params.GetInt("axis"));
      const NodePtr g = b.Node("split", {og[0]}, {{"num_outputs", count}, {"axis", axis}, {"squeeze_axis", "True"}});
      std::vector<NodeEntry> r;
      for (uint32_t i = 0; i < n->inputs.size(); ++i) r.push_back(OutputOf(g, i));
      return r;
    });

// ---- split ----

struct SplitPlan {
  int axis = 0;
  int64_t part = 0;  // size of each part along axis
};

SplitPlan PlanSplit(const Params& p, const Shape& d) {
  const int64_t n = p.GetInt("num_outputs");
  WEFT_CHECK(n >= 1, kInvalidArgument) << "split: parameter 'num_outputs' must be at least 1, got " << n;
  SplitPlan s;
  s.axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "split", "data");
  const int64_t size = d[s.axis];
  WEFT_CHECK(size % n == 0, kShape) << "split: axis " << s.axis << " of input 'data' with shape " << d.ToString()
                                    << " has size " << size << ", not divisible by num_outputs=" << n;
  if (p.GetBool("squeeze_axis")) {
    WEFT_CHECK(size == n, kShape) << "split: squeeze_axis=True needs axis " << s.axis << " of input 'data' (shape "
                                  << d.ToString() << ") to have size num_outputs=" << n << ", got " << size;
  }
  s.part = size / n;
  return s;
}

OpDef& RegisterSplit() {
  // MXNet registers SliceChannel with the alias split; composed nodes write the
  // canonical name into JSON, so it must be SliceChannel here too.
  WEFT_REGISTER_OP(op, "SliceChannel").set_compute_gpu(WEFT_GPU(cuda::SliceChannelGpu)).add_method("split");
  op.describe("Splits an array along an axis into num_outputs equal parts.\n\n"
              "With squeeze_axis=True (which requires the axis size to equal num_outputs) the split "
              "axis is removed from each output. Outputs are named output0, output1, ...")
      .add_alias("split")
      .add_input("data")
      .add_required_param("num_outputs", ParamType::kInt, "Number of parts.")
      .add_param("axis", ParamType::kInt, "1", "The axis to split along (negative counts from the end).")
      .add_param("squeeze_axis", ParamType::kBool, "False",
                 "If True, remove the split axis from the outputs (its size must equal num_outputs).")
      .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_outputs")); })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        SplitPlan s = PlanSplit(p, d);
        std::vector<int64_t> o = d.dims();
        if (p.GetBool("squeeze_axis")) o.erase(o.begin() + s.axis);
        else o[static_cast<size_t>(s.axis)] = s.part;
        for (size_t i = 0; i < out->size(); ++i) AssignShape(out, i, Shape(o), "split: output" + std::to_string(i));
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        SplitPlan s = PlanSplit(p, in[0].shape);
        tensor_cpu::SplitCPU(in[0], in[0].shape.ProdRange(0, s.axis), req, out);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        // Join the output gradients again (stack them when the axis was squeezed).
        GradBuilder b(n);
        const std::string count = std::to_string(og.size());
        const std::string axis = std::to_string(n->params.GetInt("axis"));
        if (n->params.GetBool("squeeze_axis")) return {b("stack", og, {{"num_args", count}, {"axis", axis}})};
        return {b("Concat", og, {{"num_args", count}, {"dim", axis}})};
      });
  op.list_output_names = [](const Params& p) {
    std::vector<std::string> names;
    for (int64_t i = 0; i < p.GetInt("num_outputs"); ++i) names.push_back("output" + std::to_string(i));
    return names;
  };
  return op;
}

[[maybe_unused]] OpDef& reg_split = RegisterSplit();

}  // namespace
}  // namespace weft
