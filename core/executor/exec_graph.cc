#include "core/executor/exec_graph.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "core/base/error.h"
#include "core/graph/dce.h"
#include "core/graph/gradient.h"
#include "core/graph/place_device.h"
#include "core/opdef/dynamic_shape.h"

namespace weft {
namespace {

// Note [Naming the conflicting input]
// Inference reports where shapes first disagree, which is often an operator
// deep inside the graph. When one given input is the odd one out — leaving it
// out makes the rest consistent and implies a different shape for it — the
// user wants that input named with both shapes.
void ThrowShapeConflict(const Symbol& sym, const std::unordered_map<std::string, Shape>& shapes,
                        const Error& original) {
  IndexedGraph fg(sym.outputs);
  std::string culprit;
  int found = 0;
  for (const auto& kv : shapes) {
    std::unordered_map<std::string, Shape> rest = shapes;
    rest.erase(kv.first);
    ShapeInference si;
    try {
      si = InferShapes(fg, rest);
    } catch (const Error&) {
      continue;
    }
    for (uint32_t nid : fg.arg_nodes()) {
      if (fg[nid].source->name != kv.first) continue;
      const Shape& want = si.entry[fg.entry_id(nid, 0)];
      if (want.known() && !(want == kv.second)) {
        ++found;
        culprit = "argument '" + kv.first + "' has shape " + kv.second.ToString() + " but the graph needs " +
                  want.ToString();
      }
    }
  }
  if (found == 1) WEFT_THROW(kShape) << "bind: " << culprit << " (" << original.what() << ")";
  throw original;
}

// Forward entries that a backward or update node reads (see ExecGraph::heads).
std::vector<NodeEntry> PinnedEntries(const std::vector<NodeEntry>& heads,
                                     const std::unordered_set<const Node*>& forward) {
  std::vector<NodeEntry> pinned;
  std::unordered_set<uint64_t> seen;  // node pointer bits and output index, unique per entry
  std::unordered_set<const Node*> seen_nodes;
  PostOrderDFS(heads, [&](const NodePtr& n) {
    if (forward.count(n.get())) return;
    for (const NodeEntry& e : n->inputs) {
      if (!forward.count(e.node.get()) || e.node->is_variable()) continue;
      const auto key = reinterpret_cast<uintptr_t>(e.node.get()) * 64 + e.index;
      if (seen.insert(key).second) pinned.push_back(NodeEntry{e.node, e.index, 0});
    }
  });
  return pinned;
}

void InferAll(ExecGraph* eg, const std::unordered_map<std::string, Shape>& shapes,
              const std::unordered_map<std::string, DType>& types) {
  const IndexedGraph& g = *eg->g;
  eg->shapes = InferShapes(g, shapes);
  eg->types = InferTypes(g, types, false);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid)
    for (int o = 0; o < g[nid].source->num_outputs(); ++o) {
      uint32_t eid = g.entry_id(static_cast<uint32_t>(nid), static_cast<uint32_t>(o));
      const Node* n = g[nid].source;
      WEFT_CHECK(eg->shapes.entry[eid].known() || n->is_variable() || FindDynamicShapeRule(*n->op) == nullptr, kShape)
          << "bind: node '" << n->name << "' (" << n->op->name << ") has an output shape that depends on the values "
          << "of its inputs, which a bound executor cannot plan for (MXNet 1.9.1 runs it only imperatively and in a "
          << "hybridized Gluon block, where weft runs it too)";
      WEFT_CHECK(eg->shapes.entry[eid].known(), kShape)
          << "bind: cannot infer the shape of " << (g[nid].source->is_variable() ? "input '" : "output ")
          << (g[nid].source->is_variable() ? g[nid].source->name + "'"
                                            : std::to_string(o) + " of node '" + g[nid].source->name + "'");
      WEFT_CHECK(eg->types.entry[eid] != DType::kUnknown, kDType)
          << "bind: cannot infer the dtype of " << (g[nid].source->is_variable() ? "input '" : "output ")
          << (g[nid].source->is_variable() ? g[nid].source->name + "'"
                                            : std::to_string(o) + " of node '" + g[nid].source->name + "'");
    }
}

}  // namespace

ExecGraph BuildExecGraph(const Symbol& sym, const std::unordered_map<std::string, Shape>& in_shapes,
                         const std::unordered_map<std::string, DType>& in_types, const ExecGraphOptions& opt) {
  ExecGraph eg;
  const std::vector<std::string> arg_names = sym.ListArguments();
  WEFT_CHECK(opt.arg_needs_grad.empty() || opt.arg_needs_grad.size() == arg_names.size(), kInvalidArgument)
      << "bind: " << opt.arg_needs_grad.size() << " gradient flags for " << arg_names.size() << " arguments";
  std::unordered_map<std::string, Shape> shapes = in_shapes;
  std::unordered_map<std::string, DType> types = in_types;

  // Forward inference first: a conflict there is the user's, and the head
  // gradients take the outputs' shapes.
  IndexedGraph fg(sym.outputs);
  ShapeInference fs;
  try {
    fs = InferShapes(fg, shapes);
  } catch (const Error& e) {
    if (e.status() != Status::kShape) throw;
    ThrowShapeConflict(sym, shapes, e);
  }
  TypeInference ft = InferTypes(fg, types, false);

  std::unordered_map<std::string, NodeEntry> var_entry;
  std::unordered_set<const Node*> forward;
  PostOrderDFS(sym.outputs, [&](const NodePtr& n) {
    forward.insert(n.get());
    if (n->is_variable()) var_entry.emplace(n->name, NodeEntry{n, 0, 0});
  });

  eg.heads = sym.outputs;
  eg.num_outputs = sym.outputs.size();
  std::vector<NodeEntry> xs;
  for (size_t i = 0; i < opt.arg_needs_grad.size(); ++i)
    if (opt.arg_needs_grad[i]) {
      xs.push_back(var_entry.at(arg_names[i]));
      eg.grad_arg.push_back(i);
    }
  if (!xs.empty()) {
    std::vector<NodeEntry> head_grads;
    for (size_t i = 0; i < sym.outputs.size(); ++i) {
      std::string name = "_head_grad" + std::to_string(i);
      head_grads.push_back(NodeEntry{Node::Variable(name), 0, 0});
      eg.head_grad_names.push_back(name);
      shapes[name] = fs.entry[fg.entry_id(fg.outputs()[i])];
      types[name] = ft.entry[fg.entry_id(fg.outputs()[i])];
    }
    std::vector<NodeEntry> grads = BuildGradient(sym.outputs, head_grads, xs);
    eg.heads.insert(eg.heads.end(), grads.begin(), grads.end());
    eg.num_grads = grads.size();
  }

  if (!opt.update_op.empty() && !xs.empty()) {
    const OpDef& op = OpRegistry::Get()->FindOrThrow(opt.update_op);
    std::vector<std::pair<std::string, std::string>> attr_list(opt.update_attrs.begin(), opt.update_attrs.end());
    Params p = Params::Parse(op, attr_list);
    std::vector<std::string> in_names = op.InputNames(p);
    bool is_update = in_names.size() >= 2 && in_names[0] == "weight" && in_names[1] == "grad";
    for (size_t i = 2; is_update && i < in_names.size(); ++i)
      is_update = std::find(op.mutate_inputs.begin(), op.mutate_inputs.end(), static_cast<int>(i)) !=
                  op.mutate_inputs.end();
    WEFT_CHECK(is_update, kInvalidArgument)
        << "bind: update operator " << op.name << " is not an optimizer update (inputs weight, grad, then states "
        << "it updates in place)";
    for (size_t k = 0; k < xs.size(); ++k) {
      const std::string& arg = arg_names[eg.grad_arg[k]];
      std::vector<NodeEntry> inputs = {xs[k], eg.heads[eg.num_outputs + k]};
      for (size_t i = 2; i < in_names.size(); ++i) {
        std::string name = arg + "_" + in_names[i];
        inputs.push_back(NodeEntry{Node::Variable(name), 0, 0});
        eg.state_names.push_back(name);
        shapes[name] = shapes.count(arg) ? shapes[arg] : Shape::Unknown();
        if (types.count(arg)) types[name] = types[arg];
      }
      eg.heads.push_back(NodeEntry{Node::Op(op, arg + "_update", opt.update_attrs, std::move(inputs)), 0, 0});
    }
    eg.num_updates = xs.size();
  }

  std::vector<NodeEntry> pinned;
  if (opt.pin_forward_results) pinned = PinnedEntries(eg.heads, forward);
  eg.heads.insert(eg.heads.end(), pinned.begin(), pinned.end());
  const size_t num_user_heads = eg.heads.size() - pinned.size();

  const bool grouped = !opt.group2ctx.empty();
  std::unordered_map<const Node*, Context> placed;
  if (grouped) {
    Placement pl = PlaceDevices(eg.heads, opt.default_ctx, opt.group2ctx, opt.var_ctx, true);
    for (const auto& kv : pl.origin)  // a copy of a forward entry runs in forward (kept: it is external)
      if (forward.count(kv.second)) forward.insert(kv.first);
    eg.heads = std::move(pl.heads);
    placed = std::move(pl.ctx);
    eg.cross_device_copies = pl.copies;
  }
  eg.g = std::make_unique<IndexedGraph>(eg.heads);
  if (grouped) {  // read now: `placed` is keyed by nodes the old heads may have held alone
    eg.node_ctx.resize(eg.g->num_nodes());
    for (size_t nid = 0; nid < eg.g->num_nodes(); ++nid) eg.node_ctx[nid] = placed.at((*eg.g)[nid].source);
    placed.clear();
  }
  InferAll(&eg, shapes, types);

  // Fusion would merge nodes of different contexts; a model-parallel graph runs unfused.
  if (opt.fuse && FusionEnabled() && !grouped) {
    const IndexedGraph& g0 = *eg.g;
    std::vector<int> phase(g0.num_nodes());
    for (size_t nid = 0; nid < g0.num_nodes(); ++nid) phase[nid] = forward.count(g0[nid].source) ? 0 : 1;
    std::vector<bool> keep(g0.num_entries(), false);
    for (const auto& h : g0.outputs()) keep[g0.entry_id(h)] = true;
    std::unordered_map<const Node*, int> new_phase;
    eg.nodes_before_fusion = g0.num_nodes();
    std::vector<NodeEntry> fused = FuseGraph(g0, eg.shapes, eg.types, phase, keep, &new_phase, &eg.fusion);
    for (const auto& kv : new_phase)
      if (kv.second == 0) forward.insert(kv.first);
    eg.heads = std::move(fused);
    eg.g = std::make_unique<IndexedGraph>(eg.heads);
    InferAll(&eg, shapes, types);
  }

  const IndexedGraph& g = *eg.g;
  eg.nodes_before_fusion = eg.nodes_before_fusion ? eg.nodes_before_fusion : g.num_nodes();
  eg.phase.resize(g.num_nodes());
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) eg.phase[nid] = forward.count(g[nid].source) ? 0 : 1;
  eg.external.assign(g.num_entries(), false);
  for (uint32_t nid : g.arg_nodes()) eg.external[g.entry_id(nid, 0)] = true;
  for (size_t h = 0; h < num_user_heads; ++h) eg.external[g.entry_id(g.outputs()[h])] = true;
  // Note [Device placement]: the planner knows one context; entries elsewhere
  // get arrays of their own on their node's context, and so do the copies
  // (a copy of a forward entry that backward reads must outlive forward).
  for (size_t nid = 0; grouped && nid < g.num_nodes(); ++nid)
    if (eg.node_ctx[nid] != opt.default_ctx ||
        (!g[nid].source->is_variable() && g[nid].source->op == &CrossDeviceCopyOp()))
      for (uint32_t eid = g.row_ptr()[nid]; eid < g.row_ptr()[nid + 1]; ++eid) eg.external[eid] = true;
  eg.dead = DeadEntries(g);
  eg.entry_bytes = EntryBytes(g, eg.shapes, eg.types);
  eg.plan = PlanMemory(g, eg.entry_bytes, eg.external, opt.strategy);
  CheckMemoryPlan(g, eg.plan, &eg.entry_bytes);
  eg.naive_bytes = opt.strategy == PlanStrategy::kNaive
                       ? eg.plan.total_bytes
                       : PlanMemory(g, eg.entry_bytes, eg.external, PlanStrategy::kNaive).total_bytes;
  return eg;
}

}  // namespace weft
