// Subgraph part of the C ABI: cutting a host function's graph out of the
// graph around it and composing control-flow nodes (Note [Subgraph operators]
// in core/op/control/subgraph_ops.h).
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "capi/src/c_api_common.h"
#include "core/graph/subgraphs.h"
#include "core/graph/symbol.h"

using namespace weft;  // NOLINT: C ABI implementation file

namespace {
const Symbol& Sym(const weft_symbol* h) {
  WEFT_CHECK(h != nullptr, kInvalidArgument) << "symbol handle is NULL";
  return h->sym;
}

// Copies the nodes marked `marker` (and the variables they read); an entry of
// an unmarked operator node becomes a variable. `origin` records, per new
// variable name, the outer entry (or variable) that feeds it.
class Cutter {
 public:
  explicit Cutter(std::string marker) : marker_(std::move(marker)) {}

  NodeEntry Map(const NodeEntry& e) {
    const NodePtr& n = e.node;
    if (n->is_variable()) {
      NodePtr& c = clones_[n.get()];
      if (!c) {
        c = Node::Variable(n->name);
        c->attrs = n->attrs;
        c->version = n->version;
        Record(n->name, NodeEntry{n, 0, e.version});
      }
      return NodeEntry{c, 0, e.version};
    }
    if (!Inside(*n)) {
      const std::string name = Symbol::EntryName(e);
      NodePtr& v = cut_[std::make_pair(n.get(), e.index)];
      if (!v) {
        v = Node::Variable(name);
        Record(name, NodeEntry{n, e.index, e.version});
      }
      return NodeEntry{v, 0, 0};
    }
    NodePtr& c = clones_[n.get()];
    if (!c) {
      c = std::make_shared<Node>(*n);
      for (NodeEntry& in : c->inputs) in = Map(in);
      std::vector<NodePtr> deps;
      for (const NodePtr& d : n->control_deps)
        if (!d->is_variable() && Inside(*d)) deps.push_back(Map(NodeEntry{d, 0, 0}).node);
      c->control_deps = std::move(deps);
    }
    return NodeEntry{c, e.index, e.version};
  }

  const NodeEntry& Origin(const std::string& name) const { return origin_.at(name); }

 private:
  bool Inside(const Node& n) const {
    auto it = n.attrs.find("__subgraph_name__");
    return it != n.attrs.end() && it->second == marker_;
  }
  void Record(const std::string& name, const NodeEntry& e) {
    WEFT_CHECK(origin_.emplace(name, e).second, kInvalidArgument)
        << "control flow: two different inputs of the subgraph would both be named '" << name
        << "'; give the variables distinct names";
  }
  std::string marker_;
  std::unordered_map<const Node*, NodePtr> clones_;
  std::map<std::pair<const Node*, uint32_t>, NodePtr> cut_;
  std::map<std::string, NodeEntry> origin_;
};
}  // namespace

int weft_symbol_cut_subgraph(const weft_symbol* sym, const char* marker, weft_symbol** cut, int* num_cut,
                             weft_symbol*** cut_inputs) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(marker);
  WEFT_CHECK_ARG(cut);
  WEFT_CHECK_ARG(num_cut);
  WEFT_CHECK_ARG(cut_inputs);
  Cutter c(marker);
  Symbol g;
  for (const NodeEntry& e : Sym(sym).outputs) g.outputs.push_back(c.Map(e));
  thread_local std::vector<weft_symbol*> handles;
  handles.clear();
  for (const std::string& name : g.ListInputs()) {
    Symbol s;
    s.outputs.push_back(c.Origin(name));
    handles.push_back(new weft_symbol{std::move(s)});
  }
  *cut = new weft_symbol{std::move(g)};
  *num_cut = static_cast<int>(handles.size());
  *cut_inputs = handles.data();
  WEFT_API_END();
}

int weft_symbol_compose_subgraph(const weft_op* op, const char* name, int num_attrs, const char* const* keys,
                                 const char* const* vals, int num_subgraphs, weft_symbol* const* subgraphs,
                                 int num_args, weft_symbol* const* args, weft_symbol** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(op);
  WEFT_CHECK_ARG(name);
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(IsSubgraphOp(*op->def), kInvalidArgument)
      << op->def->name << " is not a control-flow operator; compose it with weft_symbol_compose";
  auto node = std::make_shared<Node>();
  node->op = op->def;
  node->op_name = op->def->name;
  node->name = name;
  for (int i = 0; i < num_attrs; ++i) {
    WEFT_CHECK(keys && vals && keys[i] && vals[i], kInvalidArgument) << op->def->name << ": attribute " << i << " is NULL";
    node->attrs[keys[i]] = vals[i];
  }
  auto graphs = std::make_shared<SubgraphList>();
  for (int i = 0; i < num_subgraphs; ++i) graphs->push_back(Sym(subgraphs[i]).Copy());
  SetNodeSubgraphs(node.get(), std::move(graphs));
  const int want = op->def->NumInputs(node->params);
  WEFT_CHECK(num_args == want, kInvalidArgument)
      << op->def->name << " '" << name << "': num_args says " << want << " inputs besides the subgraphs, got " << num_args;
  for (int i = 0; i < num_args; ++i) {
    const Symbol& a = Sym(args[i]);
    WEFT_CHECK(a.outputs.size() == 1, kInvalidArgument)
        << op->def->name << " '" << name << "': input " << i << " has " << a.outputs.size() << " outputs";
    node->inputs.push_back(a.outputs[0]);
  }
  Symbol s;
  for (int i = 0; i < node->num_outputs(); ++i) s.outputs.push_back(NodeEntry{node, static_cast<uint32_t>(i), 0});
  *out = new weft_symbol{std::move(s)};
  WEFT_API_END();
}
