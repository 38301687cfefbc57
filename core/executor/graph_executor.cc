#include "core/executor/graph_executor.h"

#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/base/error.h"
#include "core/engine/profiler.h"

namespace weft {
namespace {

// A prepared `_full` call writing `value` into `a` (head gradients of ones,
// zeroed optimizer states).
std::shared_ptr<const PreparedOp> PrepareFill(const NDArray& a, double value) {
  auto p = std::make_shared<PreparedOp>();
  p->op = &OpRegistry::Get()->FindOrThrow("_full");
  std::ostringstream v;
  v.precision(17);
  v << value;
  p->params = Params::Parse(*p->op, {{"shape", a.shape().ToString()},
                                     {"dtype", DTypeName(a.dtype())},
                                     {"ctx", a.ctx().ToString()},
                                     {"value", v.str()}});
  p->outputs = {a};
  PrepareOp(p.get());
  return p;
}

}  // namespace

GraphExecutor::GraphExecutor(const Symbol& sym, Context ctx, std::vector<NDArray> args,
                             std::vector<NDArray> arg_grads, std::vector<GradReq> grad_reqs,
                             std::vector<NDArray> aux, const InGraphUpdate& update, bool pin_forward_results,
                             const std::map<std::string, Context>& group2ctx)
    : symbol_(sym), ctx_(ctx), args_(std::move(args)), arg_grads_(std::move(arg_grads)),
      aux_(std::move(aux)), grad_reqs_(std::move(grad_reqs)) {
  const std::vector<std::string> arg_names = sym.ListArguments();
  const std::vector<std::string> aux_names = sym.ListAuxiliaryStates();
  WEFT_CHECK(args_.size() == arg_names.size(), kInvalidArgument)
      << "bind: the symbol has " << arg_names.size() << " arguments, got " << args_.size() << " arrays";
  WEFT_CHECK(aux_.size() == aux_names.size(), kInvalidArgument)
      << "bind: the symbol has " << aux_names.size() << " auxiliary states, got " << aux_.size() << " arrays";
  if (arg_grads_.empty()) arg_grads_.resize(args_.size());
  if (grad_reqs_.empty()) grad_reqs_.assign(args_.size(), GradReq::kNull);
  WEFT_CHECK(arg_grads_.size() == args_.size() && grad_reqs_.size() == args_.size(), kInvalidArgument)
      << "bind: args_grad and grad_req must have one entry per argument (" << args_.size() << ")";
  std::unordered_map<std::string, Shape> shapes;
  std::unordered_map<std::string, DType> types;
  ExecGraphOptions opt;
  for (size_t i = 0; i < args_.size(); ++i) {
    WEFT_CHECK(!args_[i].is_none(), kInvalidArgument) << "bind: argument '" << arg_names[i] << "' has no array";
    WEFT_CHECK(!group2ctx.empty() || args_[i].ctx() == ctx_, kInvalidArgument)
        << "bind: argument '" << arg_names[i] << "' is on " << args_[i].ctx().ToString() << ", the executor on "
        << ctx_.ToString();
    WEFT_CHECK(grad_reqs_[i] == GradReq::kNull || !arg_grads_[i].is_none(), kInvalidArgument)
        << "bind: argument '" << arg_names[i] << "' has grad_req but no gradient array";
    if (grad_reqs_[i] != GradReq::kNull) {
      WEFT_CHECK(arg_grads_[i].shape() == args_[i].shape() && arg_grads_[i].dtype() == args_[i].dtype(),
                 kShape)
          << "bind: the gradient array of '" << arg_names[i] << "' is " << arg_grads_[i].shape().ToString() << " "
          << DTypeName(arg_grads_[i].dtype()) << ", the argument " << args_[i].shape().ToString() << " "
          << DTypeName(args_[i].dtype());
      WEFT_CHECK(update.op.empty() || grad_reqs_[i] == GradReq::kWrite, kInvalidArgument)
          << "bind: argument '" << arg_names[i] << "' has grad_req 'add'; an in-graph update needs 'write'";
    }
    opt.arg_needs_grad.push_back(grad_reqs_[i] != GradReq::kNull);
    opt.var_ctx[arg_names[i]] = args_[i].ctx();
    shapes[arg_names[i]] = args_[i].shape();
    types[arg_names[i]] = args_[i].dtype();
  }
  for (size_t i = 0; i < aux_.size(); ++i) {
    WEFT_CHECK(!aux_[i].is_none(), kInvalidArgument) << "bind: auxiliary state '" << aux_names[i] << "' has no array";
    shapes[aux_names[i]] = aux_[i].shape();
    types[aux_names[i]] = aux_[i].dtype();
    opt.var_ctx[aux_names[i]] = aux_[i].ctx();
  }
  opt.group2ctx = group2ctx;
  opt.default_ctx = ctx_;
  if (group2ctx.empty()) opt.var_ctx.clear();
  opt.pin_forward_results = pin_forward_results;
  opt.update_op = update.op;
  opt.update_attrs = update.attrs;
  opt.strategy = DefaultPlanStrategy();
  graph_ = BuildExecGraph(sym, shapes, types, opt);
  const IndexedGraph& g = *graph_.g;

  // Variables bind to the given arrays; head gradients and optimizer states are ours.
  entries_.resize(g.num_entries());
  std::unordered_map<std::string, NDArray> var_arrays;
  for (size_t i = 0; i < args_.size(); ++i) var_arrays[arg_names[i]] = args_[i];
  for (size_t i = 0; i < aux_.size(); ++i) var_arrays[aux_names[i]] = aux_[i];
  std::unordered_map<std::string, uint32_t> var_node;
  for (uint32_t nid : g.arg_nodes()) var_node[g[nid].source->name] = nid;
  // Head gradients in output order; a loss output's may be unused by the graph.
  if (!graph_.head_grad_names.empty()) {
    IndexedGraph fg(sym.outputs);
    ShapeInference fs = InferShapes(fg, shapes);
    TypeInference ft = InferTypes(fg, types, false);
    for (size_t i = 0; i < graph_.head_grad_names.size(); ++i) {
      uint32_t eid = fg.entry_id(fg.outputs()[i]);
      auto v = var_node.find(graph_.head_grad_names[i]);  // absent: no node reads it
      head_grad_in_.emplace_back(fs.entry[eid], v == var_node.end() ? ctx_ : NodeContext(v->second), ft.entry[eid]);
      fill_ones_.push_back(PrepareFill(head_grad_in_.back(), 1.0));
      var_arrays[graph_.head_grad_names[i]] = head_grad_in_.back();
    }
  }
  for (uint32_t nid : g.arg_nodes()) {
    const Node& n = *g[nid].source;
    const uint32_t eid = g.entry_id(nid, 0);
    auto it = var_arrays.find(n.name);
    if (it == var_arrays.end()) {  // an optimizer state
      NDArray a(graph_.shapes.entry[eid], NodeContext(nid), graph_.types.entry[eid]);
      states_.push_back(a);
      PushPrepared(PrepareFill(a, 0.0), false);
      entries_[eid] = a;
      continue;
    }
    WEFT_CHECK(it->second.dtype() == graph_.types.entry[eid], kDType)
        << "bind: argument '" << n.name << "' has dtype " << DTypeName(it->second.dtype()) << " but the graph needs "
        << DTypeName(graph_.types.entry[eid]);
    entries_[eid] = it->second;
  }

  // Gradients with grad_req write go straight into the user's arrays; updated
  // arguments are the argument arrays themselves.
  const size_t grads_at = graph_.num_outputs, updates_at = grads_at + graph_.num_grads;
  for (size_t k = 0; k < graph_.num_grads; ++k) {
    const auto& head = g.outputs()[grads_at + k];
    uint32_t eid = g.entry_id(head);
    size_t ai = graph_.grad_arg[k];
    if (grad_reqs_[ai] == GradReq::kWrite && !g[head.node_id].source->is_variable() && entries_[eid].is_none() &&
        arg_grads_[ai].ctx() == NodeContext(head.node_id))
      entries_[eid] = arg_grads_[ai];
  }
  for (size_t k = 0; k < graph_.num_updates; ++k)
    entries_[g.entry_id(g.outputs()[updates_at + k])] = args_[graph_.grad_arg[k]];

  // Planned entries are views of shared buffers; the rest (outputs,
  // gradients we copy) get arrays of their own.
  //
  // Note [One arena]
  // Entries in one buffer share its engine var, so the engine orders every
  // op touching the buffer, whether or not the graph does: that is what makes
  // reuse safe, also across steps (the next forward cannot overwrite memory a
  // slow backward op still reads). When the packed plan wins, the buffer is a
  // single arena and the executor's own ops run one after another; each op
  // still uses every core inside, and work outside the arena — updates of
  // weights and gradients the user owns, KVStore pushes, data copies — still
  // overlaps with it, which is the overlap the mixed loop relies on.
  std::vector<NDArray> buffers;
  for (int64_t bytes : graph_.plan.storage_bytes) buffers.emplace_back(Shape({bytes}), ctx_, DType::kUint8);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    if (g[nid].source->is_variable()) continue;
    for (uint32_t eid = g.row_ptr()[nid]; eid < g.row_ptr()[nid + 1]; ++eid) {
      if (!entries_[eid].is_none()) continue;
      int sid = graph_.plan.storage_id[eid];
      if (sid >= 0) {
        const int64_t off = graph_.plan.offset.empty() ? 0 : graph_.plan.offset[eid];
        entries_[eid] = buffers[static_cast<size_t>(sid)]
                            .Slice(off, off + graph_.entry_bytes[eid])
                            .ViewAs(graph_.shapes.entry[eid], graph_.types.entry[eid]);
      } else {
        entries_[eid] = NDArray(graph_.shapes.entry[eid], NodeContext(nid), graph_.types.entry[eid]);
        internal_bytes_ += static_cast<int64_t>(entries_[eid].Bytes());
      }
    }
  }
  internal_bytes_ += graph_.plan.total_bytes;
  grad_temp_.resize(args_.size());
  for (size_t k = 0; k < graph_.num_grads; ++k) {
    size_t ai = graph_.grad_arg[k];
    const NDArray& e = entries_[g.entry_id(g.outputs()[grads_at + k])];
    if (!(e.SharesChunk(arg_grads_[ai]) && e.byte_offset() == arg_grads_[ai].byte_offset())) grad_temp_[ai] = e;
  }

  PrepareSteps();
  for (size_t i = 0; i < graph_.num_outputs; ++i) outputs_.push_back(entries_[g.entry_id(g.outputs()[i])]);
}

void GraphExecutor::PrepareSteps() {
  const IndexedGraph& g = *graph_.g;
  forward_.clear();
  backward_.clear();
  // One prepared call per operator node. Dead outputs of backward nodes are
  // not written (Note in dce.h); forward kernels always write theirs, since
  // some use hidden outputs as their own scratch.
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    const Node* n = g[nid].source;
    if (n->is_variable()) continue;
    auto p = std::make_shared<PreparedOp>();
    p->op = n->op;
    p->params = n->params;
    for (const auto& e : g[nid].inputs) p->inputs.push_back(entries_[g.entry_id(e)]);
    std::vector<bool> dead;
    for (uint32_t eid = g.row_ptr()[nid]; eid < g.row_ptr()[nid + 1]; ++eid) {
      p->outputs.push_back(entries_[eid]);
      dead.push_back(graph_.phase[nid] != 0 && graph_.dead[eid]);
    }
    try {
      PrepareOp(p.get(), dead);
    } catch (const Error& e) {
      throw Error(e.status(), "node '" + n->name + "': " + e.what());
    }
    (graph_.phase[nid] == 0 ? forward_ : backward_).push_back(Step{static_cast<uint32_t>(nid), std::move(p)});
  }
}

void GraphExecutor::RebindGrads(const std::vector<NDArray>& grads) {
  WEFT_CHECK(grads.size() == arg_grads_.size(), kInvalidArgument)
      << "rebind: expected " << arg_grads_.size() << " gradient arrays, got " << grads.size();
  const IndexedGraph& g = *graph_.g;
  for (size_t k = 0; k < graph_.num_grads; ++k) {
    const size_t ai = graph_.grad_arg[k];
    const NDArray& now = arg_grads_[ai];
    const NDArray& next = grads[ai];
    WEFT_CHECK(!next.is_none() && next.shape() == now.shape() && next.dtype() == now.dtype() &&
                   next.ctx() == now.ctx(),
               kShape)
        << "rebind: the gradient array of argument " << ai << " must be " << now.shape().ToString() << " "
        << DTypeName(now.dtype());
    const uint32_t eid = g.entry_id(g.outputs()[graph_.num_outputs + k]);
    if (grad_temp_[ai].is_none()) entries_[eid] = next;  // written in place, not copied afterwards
    arg_grads_[ai] = next;
  }
  PrepareSteps();
}

void GraphExecutor::Rebind(const std::vector<NDArray>& args, const std::vector<NDArray>& aux, bool fresh_outputs) {
  WEFT_CHECK(args.size() == args_.size() && aux.size() == aux_.size(), kInvalidArgument)
      << "rebind: expected " << args_.size() << " arguments and " << aux_.size() << " auxiliary states, got "
      << args.size() << " and " << aux.size();
  const IndexedGraph& g = *graph_.g;
  std::unordered_map<std::string, NDArray> by_name;
  const std::vector<std::string> arg_names = symbol_.ListArguments(), aux_names = symbol_.ListAuxiliaryStates();
  auto check = [](const NDArray& now, const NDArray& next, const std::string& name) {
    WEFT_CHECK(!next.is_none() && next.shape() == now.shape() && next.dtype() == now.dtype() &&
                   next.ctx() == now.ctx(),
               kShape)
        << "rebind: '" << name << "' must be " << now.shape().ToString() << " " << DTypeName(now.dtype()) << " on "
        << now.ctx().ToString();
  };
  for (size_t i = 0; i < args.size(); ++i) {
    check(args_[i], args[i], arg_names[i]);
    by_name[arg_names[i]] = args_[i] = args[i];
  }
  for (size_t i = 0; i < aux.size(); ++i) {
    check(aux_[i], aux[i], aux_names[i]);
    by_name[aux_names[i]] = aux_[i] = aux[i];
  }
  for (uint32_t nid : g.arg_nodes()) {
    auto it = by_name.find(g[nid].source->name);
    if (it != by_name.end()) entries_[g.entry_id(nid, 0)] = it->second;
  }
  if (fresh_outputs) {
    for (size_t i = 0; i < graph_.num_outputs; ++i) {
      const auto& o = g.outputs()[i];
      if (g[o.node_id].source->is_variable()) continue;
      const uint32_t eid = g.entry_id(o);
      entries_[eid] = NDArray(entries_[eid].shape(), entries_[eid].ctx(), entries_[eid].dtype());
    }
  }
  outputs_.clear();
  for (size_t i = 0; i < graph_.num_outputs; ++i) outputs_.push_back(entries_[g.entry_id(g.outputs()[i])]);
  PrepareSteps();
}

void GraphExecutor::RunSteps(const std::vector<Step>& steps, bool is_train) {
  profiler::SymbolicScope symbolic;  // profile_symbolic governs these ops
  for (const Step& st : steps) PushPrepared(st.op, is_train);
}

void GraphExecutor::Forward(bool is_train) {
  RunSteps(forward_, is_train);
  trained_forward_ = is_train;
}

void GraphExecutor::Backward(const std::vector<NDArray>& head_grads) {
  if (head_grad_in_.empty()) return;  // nothing requires a gradient
  profiler::SymbolicScope symbolic;
  WEFT_CHECK(head_grads.empty() || head_grads.size() == head_grad_in_.size(), kInvalidArgument)
      << "backward: expected " << head_grad_in_.size() << " head gradients, got " << head_grads.size();
  for (size_t i = 0; i < head_grad_in_.size(); ++i) {
    if (head_grads.empty()) {
      PushPrepared(fill_ones_[i], false);
    } else {
      WEFT_CHECK(head_grads[i].shape() == head_grad_in_[i].shape(), kShape)
          << "backward: head gradient " << i << " has shape " << head_grads[i].shape().ToString() << ", output " << i
          << " has " << head_grad_in_[i].shape().ToString();
      NDArray::Copy(head_grads[i], head_grad_in_[i]);
    }
  }
  RunSteps(backward_, trained_forward_);
  const OpDef& add = OpRegistry::Get()->FindOrThrow("elemwise_add");
  for (size_t i = 0; i < args_.size(); ++i) {
    if (grad_reqs_[i] == GradReq::kNull || grad_temp_[i].is_none()) continue;
    if (grad_reqs_[i] == GradReq::kWrite) {
      NDArray::Copy(grad_temp_[i], arg_grads_[i]);
    } else {
      std::vector<NDArray> out = {arg_grads_[i]};
      // A gradient computed on another context (group2ctx) is brought over first.
      const NDArray& g = grad_temp_[i].ctx() == arg_grads_[i].ctx() ? grad_temp_[i]
                                                                      : grad_temp_[i].CopyTo(arg_grads_[i].ctx());
      InvokeParsed(add, Params::Parse(add, {}), {arg_grads_[i], g}, &out);
    }
  }
}

namespace {

std::string MB(int64_t bytes) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(1);
  os << static_cast<double>(bytes) / (1 << 20) << " MB";
  return os.str();
}

}  // namespace

std::string GraphExecutor::DebugStr() const {
  const IndexedGraph& g = *graph_.g;
  std::ostringstream os;
  auto entry_text = [&](uint32_t eid) {
    std::ostringstream e;
    e << "#" << eid;
    int sid = graph_.plan.storage_id[eid];
    if (sid >= 0) e << "@s" << sid << "+" << (graph_.plan.offset.empty() ? 0 : graph_.plan.offset[eid]);
    else e << "@own";
    if (graph_.dead[eid]) e << "(dead)";
    return e.str();
  };
  auto dump = [&](const char* title, const std::vector<Step>& steps) {
    os << title << " (" << steps.size() << " steps)\n";
    for (const Step& st : steps) {
      const Node* n = g[st.node_id].source;
      os << "  " << n->op->name << " '" << n->name << "'";
      if (!graph_.node_ctx.empty()) os << " on " << graph_.node_ctx[st.node_id].ToString();
      os << " in:";
      for (const auto& in : g[st.node_id].inputs) {
        const Node* src = g[in.node_id].source;
        os << " " << (src->is_variable() ? src->name : entry_text(g.entry_id(in)));
      }
      os << " out:";
      for (uint32_t eid = g.row_ptr()[st.node_id]; eid < g.row_ptr()[st.node_id + 1]; ++eid)
        os << " " << entry_text(eid) << " " << graph_.shapes.entry[eid].ToString();
      os << "\n";
    }
  };
  os << "Symbol outputs:";
  for (const std::string& o : symbol_.ListOutputs()) os << " " << o;
  os << "\n";
  dump("Forward", forward_);
  dump("Backward", backward_);
  size_t dead = 0;
  for (bool d : graph_.dead) dead += d ? 1 : 0;
  os << "Memory plan: " << PlanStrategyName(graph_.plan.strategy) << ", " << graph_.plan.storage_bytes.size()
     << " shared buffers, " << MB(graph_.plan.total_bytes) << " planned (naive " << MB(graph_.naive_bytes)
     << ", lower bound " << MB(graph_.plan.lower_bound_bytes) << ")\n";
  os << "Fusion: " << graph_.fusion.elementwise_groups << " elementwise groups (" << graph_.fusion.elementwise_ops_fused
     << " ops), " << graph_.fusion.nn_act_fused << " layer+activation, " << graph_.fusion.conv_bn_fused
     << " convolution+batchnorm; nodes " << graph_.nodes_before_fusion << " -> "
     << g.num_nodes() << "; dead outputs " << dead << "\n";
  if (!graph_.node_ctx.empty()) os << "Cross-device copies: " << graph_.cross_device_copies << "\n";
  os << "Total " << (internal_bytes_ >> 20) << " MB allocated\n";
  return os.str();
}

}  // namespace weft
