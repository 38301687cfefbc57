#include "core/graph/symbol.h"

#include <algorithm>

#include <unordered_map>
#include <unordered_set>

#include "core/base/error.h"
#include "core/opdef/op_rules.h"

namespace weft {
namespace {
std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}
}  // namespace
namespace {

// Variables that some operator in the graph mutates (auxiliary states).
std::unordered_set<const Node*> MutatedVariables(const std::vector<NodeEntry>& heads) {
  std::unordered_set<const Node*> mutated;
  PostOrderDFS(heads, [&](const NodePtr& n) {
    if (!n->op) return;
    for (int m : MutateInputs(*n->op, n->params)) {
      if (static_cast<size_t>(m) < n->inputs.size() && n->inputs[static_cast<size_t>(m)].node->is_variable())
        mutated.insert(n->inputs[static_cast<size_t>(m)].node.get());
    }
  });
  return mutated;
}

std::vector<std::string> ListVariables(const std::vector<NodeEntry>& heads, int which) {
  // which: 0 arguments, 1 aux states, 2 all
  std::unordered_set<const Node*> mutated;
  if (which != 2) mutated = MutatedVariables(heads);
  std::vector<std::string> names;
  PostOrderDFS(heads, [&](const NodePtr& n) {
    if (!n->is_variable()) return;
    bool is_aux = mutated.count(n.get()) > 0;
    if (which == 2 || (which == 1) == is_aux) names.push_back(n->name);
  });
  return names;
}

}  // namespace

Symbol Symbol::Variable(const std::string& name, std::map<std::string, std::string> attrs) {
  NodePtr n = Node::Variable(name);
  n->attrs = std::move(attrs);
  Symbol s;
  s.outputs.push_back(NodeEntry{n, 0, 0});
  return s;
}

Symbol Symbol::Compose(const OpDef& op, const std::string& name, std::map<std::string, std::string> attrs,
                       const std::vector<Symbol>& args,
                       const std::vector<std::pair<std::string, Symbol>>& kwargs) {
  NodePtr node = std::make_shared<Node>();
  node->op = &op;
  node->op_name = op.name;
  node->name = name;
  node->attrs = std::move(attrs);
  // Variadic ops take their input count from the positional arguments when
  // the count parameter was not given (MXNet: Concat(a, b, c)).
  // A count with a default (num_weights=1 of the multi_* updates) is not
  // taken from the inputs.
  const ParamSpec* count = op.variadic_param.empty() ? nullptr : op.FindParam(op.variadic_param);
  if (!op.variadic_param.empty() && (count == nullptr || count->required) && !node->attrs.count(op.variadic_param))
    node->attrs[op.variadic_param] = std::to_string(args.size());
  node->ParseParams();

  const std::vector<std::string> in_names = op.InputNames(node->params);
  WEFT_CHECK(args.size() <= in_names.size(), kInvalidArgument)
      << op.name << " '" << name << "': got " << args.size() << " positional inputs, takes at most "
      << in_names.size();
  std::vector<NodeEntry> inputs(in_names.size());
  std::vector<bool> given(in_names.size(), false);
  auto single = [&](const Symbol& s, const std::string& in_name) {
    WEFT_CHECK(s.outputs.size() == 1, kInvalidArgument)
        << op.name << " '" << name << "': input '" << in_name << "' is a symbol with " << s.outputs.size()
        << " outputs; pick one with [i]";
    return s.outputs[0];
  };
  for (size_t i = 0; i < args.size(); ++i) {
    inputs[i] = single(args[i], in_names[i]);
    given[i] = true;
  }
  for (const auto& kv : kwargs) {
    size_t idx = 0;
    while (idx < in_names.size() && in_names[idx] != kv.first) ++idx;
    if (idx == in_names.size()) {
      std::string list;
      for (const auto& n : in_names) list += (list.empty() ? "" : ", ") + n;
      WEFT_THROW(kInvalidArgument) << op.name << " '" << name << "': unknown input '" << kv.first
                                   << "' (inputs: " << list << ")";
    }
    WEFT_CHECK(!given[idx], kInvalidArgument)
        << op.name << " '" << name << "': input '" << kv.first << "' given twice";
    inputs[idx] = single(kv.second, kv.first);
    given[idx] = true;
  }
  for (size_t i = 0; i < in_names.size(); ++i) {
    if (given[i]) continue;
    // FORMATS.md B.5: the created variable carries a copy of the node's attributes.
    NodePtr var = Node::Variable(name + "_" + in_names[i]);
    var->attrs = node->attrs;
    inputs[i] = NodeEntry{var, 0, 0};
  }
  if (op.set_input_var_attrs)
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].node->is_variable()) op.set_input_var_attrs(static_cast<int>(i), &inputs[i].node->attrs);
  for (int m : MutateInputs(op, node->params)) {
    // The multi_* updates list the states of their largest group count.
    if (static_cast<size_t>(m) >= inputs.size()) continue;
    NodeEntry& e = inputs[static_cast<size_t>(m)];
    if (e.node->is_variable()) e.version = ++e.node->version;
  }
  node->inputs = std::move(inputs);

  Symbol out;
  for (int i = 0; i < node->num_visible_outputs(); ++i)
    out.outputs.push_back(NodeEntry{node, static_cast<uint32_t>(i), 0});
  return out;
}

Symbol Symbol::Group(const std::vector<Symbol>& symbols) {
  Symbol g;
  for (const Symbol& s : symbols) g.outputs.insert(g.outputs.end(), s.outputs.begin(), s.outputs.end());
  return g;
}

Symbol Symbol::operator[](size_t i) const {
  WEFT_CHECK(i < outputs.size(), kInvalidArgument)
      << "output index " << i << " out of range: the symbol has " << outputs.size() << " outputs";
  Symbol s;
  s.outputs.push_back(outputs[i]);
  return s;
}

Symbol Symbol::GetInternals() const {
  Symbol s;
  PostOrderDFS(outputs, [&](const NodePtr& n) {
    for (int i = 0; i < n->num_outputs(); ++i) s.outputs.push_back(NodeEntry{n, static_cast<uint32_t>(i), 0});
  });
  return s;
}

Symbol Symbol::GetChildren() const {
  Symbol s;
  for (const NodeEntry& h : outputs)
    for (const NodeEntry& e : h.node->inputs) s.outputs.push_back(e);
  return s;
}

Symbol Symbol::Copy() const {
  std::unordered_map<const Node*, NodePtr> copies;
  PostOrderDFS(outputs, [&](const NodePtr& n) {
    auto c = std::make_shared<Node>(*n);
    for (NodeEntry& e : c->inputs) e.node = copies.at(e.node.get());
    for (NodePtr& d : c->control_deps) d = copies.at(d.get());
    copies[n.get()] = c;
  });
  Symbol s;
  for (const NodeEntry& h : outputs) s.outputs.push_back(NodeEntry{copies.at(h.node.get()), h.index, h.version});
  return s;
}

Symbol Symbol::Substitute(const std::vector<Symbol>& args,
                          const std::vector<std::pair<std::string, Symbol>>& kwargs) const {
  const std::vector<std::string> arg_names = ListArguments();
  WEFT_CHECK(args.size() <= arg_names.size(), kInvalidArgument)
      << "compose: " << args.size() << " positional symbols for " << arg_names.size() << " arguments";
  std::unordered_map<std::string, NodeEntry> by_name;
  auto take = [&](const std::string& name, const Symbol& s) {
    WEFT_CHECK(s.outputs.size() == 1, kInvalidArgument)
        << "compose: the symbol for argument '" << name << "' has " << s.outputs.size() << " outputs, expected 1";
    WEFT_CHECK(by_name.emplace(name, s.outputs[0]).second, kInvalidArgument)
        << "compose: argument '" << name << "' is given twice";
  };
  for (size_t i = 0; i < args.size(); ++i) take(arg_names[i], args[i]);
  for (const auto& kv : kwargs) {
    WEFT_CHECK(std::find(arg_names.begin(), arg_names.end(), kv.first) != arg_names.end(), kInvalidArgument)
        << "compose: '" << kv.first << "' is not an argument of the symbol (arguments: " << JoinNames(arg_names)
        << ")";
    take(kv.first, kv.second);
  }
  Symbol s = Copy();
  auto replace = [&](NodeEntry* e) {
    if (!e->node->is_variable()) return;
    auto it = by_name.find(e->node->name);
    if (it != by_name.end()) *e = it->second;
  };
  std::vector<NodePtr> nodes;
  PostOrderDFS(s.outputs, [&](const NodePtr& n) { nodes.push_back(n); });
  for (const NodePtr& n : nodes)
    for (NodeEntry& e : n->inputs) replace(&e);
  for (NodeEntry& h : s.outputs) replace(&h);
  return s;
}

std::vector<std::string> Symbol::ListArguments() const { return ListVariables(outputs, 0); }
std::vector<std::string> Symbol::ListAuxiliaryStates() const { return ListVariables(outputs, 1); }
std::vector<std::string> Symbol::ListInputs() const { return ListVariables(outputs, 2); }

std::string Symbol::EntryName(const NodeEntry& e) {
  if (e.node->is_variable()) return e.node->name;
  std::vector<std::string> names = e.node->op->OutputNames(e.node->params);
  std::string out = e.index < names.size() ? names[e.index] : "output" + std::to_string(e.index);
  return e.node->name + "_" + out;
}

std::vector<std::string> Symbol::ListOutputs() const {
  std::vector<std::string> names;
  for (const NodeEntry& e : outputs) names.push_back(EntryName(e));
  return names;
}

std::string Symbol::Name() const {
  if (outputs.empty()) return "";
  const Node* head = outputs[0].node.get();
  for (const NodeEntry& e : outputs)
    if (e.node.get() != head) return "";
  return head->name;
}

bool Symbol::GetAttr(const std::string& key, std::string* value) const {
  if (outputs.empty()) return false;
  const auto& attrs = outputs[0].node->attrs;
  auto it = attrs.find(key);
  if (it == attrs.end()) return false;
  *value = it->second;
  return true;
}

void Symbol::SetAttr(const std::string& key, const std::string& value) {
  WEFT_CHECK(!Name().empty(), kInvalidArgument) << "set_attr needs a symbol with a single head node";
  Node* head = outputs[0].node.get();
  bool hidden = key.size() > 4 && key.compare(0, 2, "__") == 0 && key.compare(key.size() - 2, 2, "__") == 0;
  if (head->op && !hidden) {
    // An operator parameter: validate by re-parsing with the new value.
    auto saved = head->attrs;
    head->attrs[key] = value;
    try {
      head->ParseParams();
    } catch (...) {
      head->attrs = saved;
      throw;
    }
    return;
  }
  head->attrs[key] = value;
}

std::map<std::string, std::map<std::string, std::string>> Symbol::AttrDict() const {
  std::map<std::string, std::map<std::string, std::string>> all;
  PostOrderDFS(outputs, [&](const NodePtr& n) {
    if (!n->attrs.empty()) all[n->name] = n->attrs;
  });
  return all;
}

std::map<std::string, std::string> Symbol::ListAttr() const {
  return outputs.empty() ? std::map<std::string, std::string>{} : outputs[0].node->attrs;
}

}  // namespace weft
