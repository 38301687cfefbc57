#include "core/executor/graph_executor.h"

#include <unordered_map>
#include <unordered_set>

#include "core/base/error.h"
#include "core/graph/gradient.h"
#include "core/graph/infer.h"
#include "core/graph/memory_plan.h"
#include "core/ndarray/imperative.h"

namespace weft {

GradReq ParseGradReq(const std::string& s) {
  if (s == "null") return GradReq::kNull;
  if (s == "write" || s == "inplace") return GradReq::kWrite;
  if (s == "add") return GradReq::kAdd;
  WEFT_THROW(kInvalidArgument) << "grad_req must be 'null', 'write' or 'add', got '" << s << "'";
}

GraphExecutor::GraphExecutor(const Symbol& sym, Context ctx, std::vector<NDArray> args,
                             std::vector<NDArray> arg_grads, std::vector<GradReq> grad_reqs,
                             std::vector<NDArray> aux)
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
  for (size_t i = 0; i < args_.size(); ++i) {
    WEFT_CHECK(!args_[i].is_none(), kInvalidArgument) << "bind: argument '" << arg_names[i] << "' has no array";
    WEFT_CHECK(grad_reqs_[i] == GradReq::kNull || !arg_grads_[i].is_none(), kInvalidArgument)
        << "bind: argument '" << arg_names[i] << "' has grad_req but no gradient array";
  }

  // Variables by name; the gradient graph hangs off the forward heads.
  std::unordered_map<std::string, NodeEntry> var_entry;
  PostOrderDFS(sym.outputs, [&](const NodePtr& n) {
    if (n->is_variable()) var_entry[n->name] = NodeEntry{n, 0, 0};
  });
  full_heads_ = sym.outputs;
  std::vector<NodeEntry> xs;
  std::vector<size_t> x_arg;
  for (size_t i = 0; i < args_.size(); ++i)
    if (grad_reqs_[i] != GradReq::kNull) {
      xs.push_back(var_entry.at(arg_names[i]));
      x_arg.push_back(i);
    }
  std::vector<NodeEntry> head_grad_vars;
  if (!xs.empty()) {
    for (size_t i = 0; i < sym.outputs.size(); ++i)
      head_grad_vars.push_back(NodeEntry{Node::Variable("_head_grad" + std::to_string(i)), 0, 0});
    std::vector<NodeEntry> grads = BuildGradient(sym.outputs, head_grad_vars, xs);
    full_heads_.insert(full_heads_.end(), grads.begin(), grads.end());
  }

  // Forward nodes come first in the post order because the forward heads are
  // visited first; count them so Forward and Backward run disjoint ranges.
  size_t num_forward_nodes = 0;
  PostOrderDFS(sym.outputs, [&](const NodePtr&) { ++num_forward_nodes; });
  IndexedGraph g(full_heads_);

  std::unordered_map<std::string, Shape> shapes;
  std::unordered_map<std::string, DType> types;
  for (size_t i = 0; i < args_.size(); ++i) {
    shapes[arg_names[i]] = args_[i].shape();
    types[arg_names[i]] = args_[i].dtype();
  }
  for (size_t i = 0; i < aux_.size(); ++i) {
    shapes[aux_names[i]] = aux_[i].shape();
    types[aux_names[i]] = aux_[i].dtype();
  }
  {  // head gradients have the shapes of the outputs
    IndexedGraph fg(sym.outputs);
    ShapeInference fs = InferShapes(fg, shapes);
    TypeInference ft = InferTypes(fg, types, false);
    for (size_t i = 0; i < head_grad_vars.size(); ++i) {
      shapes[head_grad_vars[i].node->name] = fs.entry[fg.entry_id(fg.outputs()[i])];
      types[head_grad_vars[i].node->name] = ft.entry[fg.entry_id(fg.outputs()[i])];
    }
  }
  ShapeInference si = InferShapes(g, shapes);
  TypeInference ti = InferTypes(g, types, false);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid)
    for (int o = 0; o < g[nid].source->num_outputs(); ++o) {
      uint32_t eid = g.entry_id(static_cast<uint32_t>(nid), static_cast<uint32_t>(o));
      WEFT_CHECK(si.entry[eid].known(), kShape)
          << "bind: cannot infer the shape of output " << o << " of node '" << g[nid].source->name << "'";
      WEFT_CHECK(ti.entry[eid] != DType::kUnknown, kDType)
          << "bind: cannot infer the dtype of output " << o << " of node '" << g[nid].source->name << "'";
    }

  // Entry arrays: variables bind to the given arrays, everything else is ours.
  entries_.resize(g.num_entries());
  std::unordered_map<std::string, NDArray> var_arrays;
  for (size_t i = 0; i < args_.size(); ++i) var_arrays[arg_names[i]] = args_[i];
  for (size_t i = 0; i < aux_.size(); ++i) var_arrays[aux_names[i]] = aux_[i];
  for (size_t i = 0; i < head_grad_vars.size(); ++i) {
    const std::string& name = head_grad_vars[i].node->name;
    NDArray hg(shapes[name], ctx_, types[name]);
    head_grad_in_.push_back(hg);
    var_arrays[name] = hg;
  }
  for (uint32_t nid : g.arg_nodes()) {
    const Node& n = *g[nid].source;
    auto it = var_arrays.find(n.name);
    WEFT_CHECK(it != var_arrays.end(), kInvalidArgument) << "bind: no array for input '" << n.name << "'";
    WEFT_CHECK(it->second.shape() == si.entry[g.entry_id(nid, 0)], kShape)
        << "bind: argument '" << n.name << "' has shape " << it->second.shape().ToString()
        << " but the graph needs " << si.entry[g.entry_id(nid, 0)].ToString();
    entries_[g.entry_id(nid, 0)] = it->second;
  }
  // Gradients with grad_req write go straight into the user's arrays.
  grad_temp_.resize(args_.size());
  std::unordered_set<uint32_t> bound_grad;
  for (size_t k = 0; k < xs.size(); ++k) {
    const auto& head = g.outputs()[sym.outputs.size() + k];
    uint32_t eid = g.entry_id(head);
    size_t ai = x_arg[k];
    bool is_variable = g[head.node_id].source->is_variable();
    if (grad_reqs_[ai] == GradReq::kWrite && !is_variable && !bound_grad.count(eid) && entries_[eid].is_none()) {
      entries_[eid] = arg_grads_[ai];
      bound_grad.insert(eid);
    }
  }
  // Memory plan (DESIGN.md "Memory planning"): entries we own are views of
  // shared buffers. Entries sharing a buffer share its engine var, so the
  // engine orders them even when the graph does not.
  std::vector<bool> external(g.num_entries(), false);
  for (uint32_t eid = 0; eid < g.num_entries(); ++eid) external[eid] = !entries_[eid].is_none();
  for (size_t i = 0; i < sym.outputs.size(); ++i) external[g.entry_id(g.outputs()[i])] = true;  // read by the user
  for (size_t k = sym.outputs.size(); k < g.outputs().size(); ++k) external[g.entry_id(g.outputs()[k])] = true;
  // Forward results that the backward pass reads are kept out of the plan, so
  // backward can run again without a new forward (nothing overwrites them).
  for (size_t nid = num_forward_nodes; nid < g.num_nodes(); ++nid)
    for (const auto& e : g[nid].inputs)
      if (e.node_id < num_forward_nodes && !g[e.node_id].source->is_variable()) external[g.entry_id(e)] = true;
  std::vector<int64_t> entry_bytes = EntryBytes(g, si, ti);
  plan_ = PlanMemory(g, entry_bytes, external, DefaultPlanStrategy());
  CheckMemoryPlan(g, plan_, &entry_bytes);
  std::vector<NDArray> buffers;
  for (int64_t bytes : plan_.storage_bytes) buffers.emplace_back(Shape({bytes}), ctx_, DType::kUint8);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    if (g[nid].source->is_variable()) continue;
    for (int o = 0; o < g[nid].source->num_outputs(); ++o) {
      uint32_t eid = g.entry_id(static_cast<uint32_t>(nid), static_cast<uint32_t>(o));
      if (!entries_[eid].is_none()) continue;
      int sid = plan_.storage_id[eid];
      if (sid >= 0) {
        entries_[eid] = buffers[static_cast<size_t>(sid)].ViewAs(si.entry[eid], ti.entry[eid]);
      } else {
        entries_[eid] = NDArray(si.entry[eid], ctx_, ti.entry[eid]);
        internal_bytes_ += static_cast<int64_t>(entries_[eid].Bytes());
      }
    }
  }
  internal_bytes_ += plan_.total_bytes;
  for (size_t k = 0; k < xs.size(); ++k) {
    size_t ai = x_arg[k];
    uint32_t eid = g.entry_id(g.outputs()[sym.outputs.size() + k]);
    if (!(entries_[eid].SharesChunk(arg_grads_[ai]) && entries_[eid].byte_offset() == arg_grads_[ai].byte_offset()))
      grad_temp_[ai] = entries_[eid];  // copied (write) or added (add) after backward
  }

  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    const Node* n = g[nid].source;
    nodes_.push_back(n);
    if (n->is_variable()) {
      if (nid < num_forward_nodes) num_forward_steps_ = steps_.size();
      continue;
    }
    Step st;
    st.node_id = static_cast<uint32_t>(nid);
    for (const auto& e : g[nid].inputs) st.in_entries.push_back(g.entry_id(e));
    for (int o = 0; o < n->num_outputs(); ++o)
      st.out_entries.push_back(g.entry_id(static_cast<uint32_t>(nid), static_cast<uint32_t>(o)));
    steps_.push_back(std::move(st));
    if (nid < num_forward_nodes) num_forward_steps_ = steps_.size();
  }
  for (const auto& o : g.outputs()) {
    if (outputs_.size() == sym.outputs.size()) break;
    outputs_.push_back(entries_[g.entry_id(o)]);
  }
}

void GraphExecutor::RunSteps(size_t begin, size_t end, bool is_train) {
  for (size_t s = begin; s < end; ++s) {
    const Step& st = steps_[s];
    const Node* n = nodes_[st.node_id];
    std::vector<NDArray> in, out;
    in.reserve(st.in_entries.size());
    for (uint32_t e : st.in_entries) in.push_back(entries_[e]);
    for (uint32_t e : st.out_entries) out.push_back(entries_[e]);
    try {
      InvokeParsed(*n->op, n->params, std::move(in), &out, is_train);
    } catch (const Error& e) {
      throw Error(e.status(), "node '" + n->name + "': " + e.what());
    }
  }
}

void GraphExecutor::Forward(bool is_train) {
  RunSteps(0, num_forward_steps_, is_train);
  trained_forward_ = is_train;
}

void GraphExecutor::Backward(const std::vector<NDArray>& head_grads) {
  WEFT_CHECK(!head_grad_in_.empty() || steps_.size() == num_forward_steps_, kInternal) << "no gradient graph";
  if (head_grad_in_.empty()) return;  // nothing requires a gradient
  WEFT_CHECK(head_grads.empty() || head_grads.size() == head_grad_in_.size(), kInvalidArgument)
      << "backward: expected " << head_grad_in_.size() << " head gradients, got " << head_grads.size();
  const OpDef& full = OpRegistry::Get()->FindOrThrow("_full");
  for (size_t i = 0; i < head_grad_in_.size(); ++i) {
    if (head_grads.empty()) {
      std::vector<NDArray> out = {head_grad_in_[i]};
      InvokeParsed(full, Params::Parse(full, {{"shape", head_grad_in_[i].shape().ToString()},
                                              {"dtype", DTypeName(head_grad_in_[i].dtype())},
                                              {"ctx", ctx_.ToString()},
                                              {"value", "1"}}),
                   {}, &out);
    } else {
      NDArray::Copy(head_grads[i], head_grad_in_[i]);
    }
  }
  RunSteps(num_forward_steps_, steps_.size(), trained_forward_);
  const OpDef& add = OpRegistry::Get()->FindOrThrow("elemwise_add");
  for (size_t i = 0; i < args_.size(); ++i) {
    if (grad_reqs_[i] == GradReq::kNull || grad_temp_[i].is_none()) continue;
    if (grad_reqs_[i] == GradReq::kWrite) {
      NDArray::Copy(grad_temp_[i], arg_grads_[i]);
    } else {
      std::vector<NDArray> out = {arg_grads_[i]};
      InvokeParsed(add, Params::Parse(add, {}), {arg_grads_[i], grad_temp_[i]}, &out);
    }
  }
}

}  // namespace weft
