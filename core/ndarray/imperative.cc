#include "core/ndarray/imperative.h"

#include "core/base/error.h"
#include "core/engine/inline_push.h"
#include "core/ndarray/axpy_fusion.h"
#include "core/opdef/dynamic_shape.h"
#include "core/opdef/op_rules.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

Context ResolveContext(const OpDef& op, const Params& params, const std::vector<NDArray>& inputs) {
  if (!inputs.empty()) {
    Context c = inputs[0].ctx();
    for (size_t i = 1; i < inputs.size(); ++i) {
      WEFT_CHECK(inputs[i].ctx() == c, kInvalidArgument)
          << op.name << ": all inputs must be on one device, but input 0 is on " << c.ToString()
          << " and input " << i << " on " << inputs[i].ctx().ToString();
    }
    return c;
  }
  if (op.ParamIndex("ctx") >= 0 && !params.IsNone("ctx") && !params.GetString("ctx").empty())
    return Context::Parse(params.GetString("ctx"));
  return Context::CPU(0);
}

// Note [Data-dependent output shapes] (core/opdef/dynamic_shape.h): waits for the
// inputs the rule reads (copied to the host when on a device) and asks it.
std::vector<Shape> DynamicOutputShapes(const OpDef& op, const DynamicShapeRule& rule, const Params& params,
                                       const std::vector<NDArray>& inputs, const std::vector<Shape>& in_shapes) {
  std::vector<TensorView> values(inputs.size());
  std::vector<NDArray> host(inputs.size());
  for (int r : rule.reads) {
    WEFT_CHECK(r >= 0 && static_cast<size_t>(r) < inputs.size(), kInternal) << op.name << ": shape rule reads input " << r;
    const NDArray& a = inputs[static_cast<size_t>(r)];
    host[static_cast<size_t>(r)] = a.ctx().is_cpu() ? a : a.CopyTo(Context::CPU(0));
    host[static_cast<size_t>(r)].WaitToRead();
    values[static_cast<size_t>(r)] = host[static_cast<size_t>(r)].View();
  }
  std::vector<Shape> out = rule.shapes(params, in_shapes, values);
  WEFT_CHECK(static_cast<int>(out.size()) == op.NumOutputs(params), kInternal)
      << op.name << ": the shape rule gave " << out.size() << " shapes";
  return out;
}

RecordingFn g_is_recording = nullptr;
RecordFn g_record = nullptr;

void PushGated(const std::shared_ptr<const PreparedOp>& p, bool is_train, axpy_fusion::Gate gate,
               bool run_if_ready = false);

// Note [Small ops run at push] (core/engine/inline_push.h): a CPU call of an
// elementwise op the fusion pass can write (a pure kernel that never pushes,
// waits or draws random numbers) on at most this many bytes per array.
constexpr size_t kRunAtPushBytes = 16 << 10;

bool RunsAtPushIfReady(const PreparedOp& p) {
  if (!p.ctx.is_cpu() || p.rng != nullptr || p.op->fusion != FusionClass::kElementwise ||
      p.op->fused_form.kind == FusedForm::kNone)
    return false;
  for (const NDArray& a : p.inputs)
    if (a.Bytes() > kRunAtPushBytes) return false;
  for (const NDArray& o : p.outputs)
    if (o.Bytes() > kRunAtPushBytes) return false;
  return true;
}

}  // namespace

void SetRecordHook(RecordingFn is_recording, RecordFn record) {
  g_is_recording = is_recording;
  g_record = record;
}

void Invoke(const OpDef& op, const AttrList& attrs, const std::vector<NDArray>& inputs,
            std::vector<NDArray>* outputs, bool is_train) {
  InvokeParsed(op, Params::Parse(op, attrs), inputs, outputs, is_train);
}

namespace {

// Both entry points: `dead` empty and `fill_none` false is a plain call.
void InvokeImpl(const OpDef& op, Params params, std::vector<NDArray> inputs, std::vector<NDArray>* outputs,
                bool is_train, const std::vector<bool>& dead, bool fill_none) {
  const int num_in = op.NumInputs(params);
  WEFT_CHECK(static_cast<int>(inputs.size()) == num_in, kInvalidArgument)
      << op.name << ": expected " << num_in << " input(s), got " << inputs.size();
  // An input's name, for a message only (the names are built per call otherwise).
  auto in_name = [&](size_t i) {
    std::vector<std::string> names = op.InputNames(params);
    return i < names.size() ? names[i] : std::to_string(i);
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    WEFT_CHECK(!inputs[i].is_none(), kInvalidArgument) << op.name << ": input '" << in_name(i) << "' is empty";
  const Context ctx = ResolveContext(op, params, inputs);
  const FCompute& kernel = ctx.is_cpu() ? op.compute_cpu : op.compute_gpu;
  WEFT_CHECK(static_cast<bool>(kernel), kInvalidArgument)
      << op.name << ": no kernel for device " << ctx.ToString();

  // Inference on the caller's thread: every error surfaces here, before a push.
  const int num_out = op.NumOutputs(params);
  std::vector<Shape> in_shapes, out_shapes(static_cast<size_t>(num_out), Shape::Unknown());
  std::vector<DType> in_types, out_types(static_cast<size_t>(num_out), DType::kUnknown);
  in_shapes.reserve(inputs.size());
  in_types.reserve(inputs.size());
  for (const NDArray& a : inputs) {
    in_shapes.push_back(a.shape());
    in_types.push_back(a.dtype());
  }
  bool shapes_done = op.InferShape(params, &in_shapes, &out_shapes);
  if (!shapes_done) {
    if (const DynamicShapeRule* rule = FindDynamicShapeRule(op)) {
      out_shapes = DynamicOutputShapes(op, *rule, params, inputs, in_shapes);
      shapes_done = true;
    }
  }
  WEFT_CHECK(shapes_done, kShape) << op.name << ": cannot infer the output shape from the inputs";
  // Inference may read a 0 dim as "unknown" (MXNet's partial shapes) and fill it in; the kernel
  // then sees the real array, smaller than the outputs were sized for.
  for (size_t i = 0; i < inputs.size(); ++i)
    WEFT_CHECK(in_shapes[i] == inputs[i].shape(), kShape)
        << op.name << ": input '" << in_name(i) << "' has shape "
        << inputs[i].shape().ToString() << ", inference expects " << in_shapes[i].ToString();
  bool types_done = op.InferType(params, &in_types, &out_types);
  WEFT_CHECK(types_done, kDType) << op.name << ": cannot infer the output dtype from the inputs";

  const int num_visible = op.NumVisibleOutputs(params);
  const bool fresh = outputs->empty();
  std::vector<NDArray> outs;
  outs.reserve(static_cast<size_t>(num_out));
  if (!fresh) {
    // out= gives the visible outputs; the executor may give all of them
    // (hidden ones such as Dropout's mask feed its backward pass).
    const int given = static_cast<int>(outputs->size());
    WEFT_CHECK(given == num_visible || given == num_out, kInvalidArgument)
        << op.name << ": out= needs " << num_visible << " array(s), got " << outputs->size();
    outs = *outputs;
    for (int i = 0; i < given; ++i) {
      NDArray& o = outs[static_cast<size_t>(i)];
      if (fill_none && o.is_none()) {
        o = NDArray(out_shapes[static_cast<size_t>(i)], ctx, out_types[static_cast<size_t>(i)]);
        continue;
      }
      WEFT_CHECK(!o.is_none(), kInvalidArgument) << op.name << ": out[" << i << "] is empty";
      WEFT_CHECK(o.shape() == out_shapes[static_cast<size_t>(i)], kShape)
          << op.name << ": out[" << i << "] has shape " << o.shape().ToString() << " but the result has shape "
          << out_shapes[static_cast<size_t>(i)].ToString();
      WEFT_CHECK(o.dtype() == out_types[static_cast<size_t>(i)], kDType)
          << op.name << ": out[" << i << "] has dtype " << DTypeName(o.dtype()) << " but the result is "
          << DTypeName(out_types[static_cast<size_t>(i)]);
      WEFT_CHECK(o.ctx() == ctx, kInvalidArgument)
          << op.name << ": out[" << i << "] is on " << o.ctx().ToString() << ", inputs on " << ctx.ToString();
    }
    for (int i = given; i < num_out; ++i)
      outs.emplace_back(out_shapes[static_cast<size_t>(i)], ctx, out_types[static_cast<size_t>(i)]);
  } else {
    for (int i = 0; i < num_out; ++i)
      outs.emplace_back(out_shapes[static_cast<size_t>(i)], ctx, out_types[static_cast<size_t>(i)]);
  }

  auto p = std::make_shared<PreparedOp>();
  p->op = &op;
  p->inputs = std::move(inputs);
  p->outputs = std::move(outs);
  p->params = std::move(params);
  PrepareOp(p.get(), dead);
  // Autograd records the call (outputs tagged before they are handed back).
  const bool recording = g_is_recording != nullptr && g_is_recording();
  if (recording) g_record(op, p->params, p->inputs, &p->outputs);
  axpy_fusion::Gate gate = axpy_fusion::NoteCall(*p, fresh && dead.empty(), recording);
  std::vector<NDArray> visible(p->outputs.begin(), p->outputs.begin() + num_visible);
  // The pushed call holds plain arrays: a tape node must not be released on
  // an engine worker (a custom Function's release calls the front end).
  for (NDArray& a : p->inputs)
    if (a.ag_node()) a = a.Detach();
  for (NDArray& o : p->outputs)
    if (o.ag_node()) o = o.Detach();
  const bool small = RunsAtPushIfReady(*p);
  PushGated(p, is_train, std::move(gate), small);
  *outputs = std::move(visible);
}

}  // namespace

void InvokeParsed(const OpDef& op, Params params, std::vector<NDArray> inputs,
                  std::vector<NDArray>* outputs, bool is_train) {
  InvokeImpl(op, std::move(params), std::move(inputs), outputs, is_train, {}, false);
}

void InvokeBackward(const OpDef& op, const Params& params, std::vector<NDArray> inputs,
                    std::vector<NDArray>* outputs, bool is_train, const std::vector<bool>& dead) {
  InvokeImpl(op, params, std::move(inputs), outputs, is_train, dead, true);
}

void PrepareOp(PreparedOp* p, const std::vector<bool>& dead) {
  const OpDef& op = *p->op;
  WEFT_CHECK(static_cast<int>(p->inputs.size()) == op.NumInputs(p->params), kInvalidArgument)
      << op.name << ": expected " << op.NumInputs(p->params) << " input(s), got " << p->inputs.size();
  WEFT_CHECK(static_cast<int>(p->outputs.size()) == op.NumOutputs(p->params), kInvalidArgument)
      << op.name << ": expected " << op.NumOutputs(p->params) << " output(s), got " << p->outputs.size();
  p->ctx = ResolveContext(op, p->params, p->inputs);
  WEFT_CHECK(static_cast<bool>(p->ctx.is_cpu() ? op.compute_cpu : op.compute_gpu), kInvalidArgument)
      << op.name << ": no kernel for device " << p->ctx.ToString();
  p->reads.clear();
  p->writes.clear();
  p->reads.reserve(p->inputs.size());
  p->writes.reserve(p->outputs.size() + 1);
  for (const NDArray& a : p->inputs) p->reads.push_back(a.var());
  for (const NDArray& o : p->outputs) p->writes.push_back(o.var());
  for (int m : MutateInputs(op, p->params))  // the multi_* updates list the states of their largest group count
    if (static_cast<size_t>(m) < p->inputs.size()) p->writes.push_back(p->inputs[static_cast<size_t>(m)].var());
  p->rng = nullptr;
  if (op.NeedsRNG(p->params)) {
    p->rng = RandomState::Get(p->ctx);
    p->writes.push_back(p->rng->var());
  }
  p->req.assign(p->outputs.size(), OpReq::kWriteTo);
  for (size_t o = 0; o < p->outputs.size(); ++o) {
    if (o < dead.size() && dead[o]) {
      p->req[o] = OpReq::kNull;
      continue;
    }
    for (const NDArray& a : p->inputs)
      if (a.SharesChunk(p->outputs[o]) && a.byte_offset() == p->outputs[o].byte_offset())
        p->req[o] = OpReq::kWriteInplace;
  }
}

void PushPrepared(const std::shared_ptr<const PreparedOp>& p, bool is_train) { PushGated(p, is_train, nullptr); }

namespace {

// A gated call runs only if its gate admits it (Note [In-place axpy fusion]).
void PushGated(const std::shared_ptr<const PreparedOp>& p, bool is_train, axpy_fusion::Gate gate,
               bool run_if_ready) {
  RunIfReadyScope at_push(run_if_ready);
  Engine::Get()->Push(
      [p, is_train, gate = std::move(gate)](RunContext rctx) {
        if (!axpy_fusion::Admit(gate)) return;
        std::vector<TensorView> in_views, out_views;
        in_views.reserve(p->inputs.size());
        out_views.reserve(p->outputs.size());
        for (const NDArray& a : p->inputs) in_views.push_back(a.View());
        for (const NDArray& o : p->outputs) out_views.push_back(o.View());
        OpContext octx;
        octx.is_train = is_train;
        octx.ctx = p->ctx;
        octx.rng = p->rng;
        octx.stream = rctx.stream;
        std::vector<uint64_t> stamps;  // read here, inside the op: they name what the kernel reads
        if (p->op->uses_input_stamps) {
          stamps.reserve(p->inputs.size());
          for (const NDArray& a : p->inputs) stamps.push_back(a.WriteStamp());
          octx.input_stamps = stamps.data();
        }
        const FCompute& k = p->ctx.is_cpu() ? p->op->compute_cpu : p->op->compute_gpu;
        k(octx, p->params, in_views, p->req, out_views);
      },
      p->ctx, p->reads, p->writes, FnProperty::kNormal, 0, p->op->name.c_str());
}

}  // namespace

}  // namespace weft
