#include "core/graph/gradient.h"

#include <unordered_map>
#include <unordered_set>

#include "core/base/error.h"

namespace weft {

GradReq ParseGradReq(const std::string& s) {
  if (s == "null") return GradReq::kNull;
  if (s == "write" || s == "inplace") return GradReq::kWrite;
  if (s == "add") return GradReq::kAdd;
  WEFT_THROW(kInvalidArgument) << "grad_req must be 'null', 'write' or 'add', got '" << s << "'";
}

NodePtr MakeNode(const std::string& op, const std::string& name, std::vector<NodeEntry> inputs,
                 std::map<std::string, std::string> attrs) {
  return Node::Op(OpRegistry::Get()->FindOrThrow(op), name, std::move(attrs), std::move(inputs));
}

NodeEntry MakeEntry(const std::string& op, const std::string& name, std::vector<NodeEntry> inputs,
                    std::map<std::string, std::string> attrs, uint32_t index) {
  return NodeEntry{MakeNode(op, name, std::move(inputs), std::move(attrs)), index, 0};
}

NodeEntry ZerosLike(const NodeEntry& e) {
  return MakeEntry("zeros_like", e.node->name + "_zero_grad" + std::to_string(e.index), {e});
}

namespace {

struct EntryKey {
  const Node* node;
  uint32_t index;
  bool operator==(const EntryKey& o) const { return node == o.node && index == o.index; }
};
struct EntryKeyHash {
  size_t operator()(const EntryKey& k) const { return std::hash<const Node*>()(k.node) * 31 + k.index; }
};

// Sums the gradients that reached one entry.
NodeEntry Aggregate(std::vector<NodeEntry> grads, const NodeEntry& of) {
  if (grads.empty()) return ZerosLike(of);
  if (grads.size() == 1) return grads[0];
  std::string name = of.node->name + "_grad_sum" + std::to_string(of.index);
  std::string count = std::to_string(grads.size());
  return MakeEntry("add_n", name, std::move(grads), {{"num_args", count}});
}

// Note [Gradient nodes keep the device group]
// A model-parallel bind places each node by its `__ctx_group__` (Note [Device
// placement] in place_device.cc); a layer's gradient belongs where the layer
// runs (MXNet's PlaceDevice gives a backward node its forward node's device).
// The nodes a gradient rule makes are new, and only they are reachable from
// its results without passing through the forward graph or the output
// gradients handed to the rule; they get the forward node's group unless they
// carry one. Each new node is visited once, so this stays linear.
void StampDeviceGroup(const Node& fwd, const std::vector<NodeEntry>& in_grads,
                      const std::unordered_set<const Node*>& forward, const std::vector<NodeEntry>& out_grads) {
  auto group = fwd.attrs.find("__ctx_group__");
  if (group == fwd.attrs.end()) return;
  std::unordered_set<const Node*> stop;
  for (const NodeEntry& e : out_grads) stop.insert(e.node.get());
  std::vector<Node*> todo;
  for (const NodeEntry& e : in_grads)
    if (e.node) todo.push_back(e.node.get());
  while (!todo.empty()) {
    Node* m = todo.back();
    todo.pop_back();
    if (forward.count(m) || !stop.insert(m).second) continue;
    if (m->is_variable()) continue;
    m->attrs.emplace("__ctx_group__", group->second);
    for (const NodeEntry& e : m->inputs) todo.push_back(e.node.get());
  }
}

}  // namespace

std::vector<NodeEntry> BuildGradient(const std::vector<NodeEntry>& heads, const std::vector<NodeEntry>& head_grads,
                                     const std::vector<NodeEntry>& xs) {
  WEFT_CHECK(heads.size() == head_grads.size(), kInvalidArgument)
      << "gradient: " << heads.size() << " heads but " << head_grads.size() << " head gradients";
  std::vector<NodePtr> order;
  PostOrderDFS(heads, [&](const NodePtr& n) { order.push_back(n); });
  std::unordered_set<const Node*> forward_nodes;
  for (const NodePtr& n : order) forward_nodes.insert(n.get());

  // Only nodes that depend on some x need gradients.
  std::unordered_set<const Node*> wanted_x, on_path;
  for (const NodeEntry& x : xs) wanted_x.insert(x.node.get());
  for (const NodePtr& n : order) {
    bool dep = wanted_x.count(n.get()) > 0;
    for (const NodeEntry& e : n->inputs) dep = dep || on_path.count(e.node.get());
    if (dep) on_path.insert(n.get());
  }

  std::unordered_map<EntryKey, std::vector<NodeEntry>, EntryKeyHash> grads;
  for (size_t i = 0; i < heads.size(); ++i) grads[{heads[i].node.get(), heads[i].index}].push_back(head_grads[i]);

  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const NodePtr& n = *it;
    if (n->is_variable() || !on_path.count(n.get())) continue;
    std::vector<NodeEntry> out_grads;
    bool any = false;
    for (int i = 0; i < n->num_outputs(); ++i) {
      auto g = grads.find({n.get(), static_cast<uint32_t>(i)});
      if (g != grads.end() && !g->second.empty()) {
        any = true;
        out_grads.push_back(Aggregate(g->second, NodeEntry{n, static_cast<uint32_t>(i), 0}));
      } else {
        out_grads.push_back(NodeEntry{});  // filled below only if the rule needs it
      }
    }
    if (!any) continue;
    for (size_t i = 0; i < out_grads.size(); ++i)
      if (!out_grads[i].node) out_grads[i] = ZerosLike(NodeEntry{n, static_cast<uint32_t>(i), 0});
    WEFT_CHECK(static_cast<bool>(n->op->gradient), kNotFound)
        << "gradient: operator " << n->op->name << " (node '" << n->name << "') has no gradient rule";
    std::vector<NodeEntry> in_grads = n->op->gradient(n, out_grads);
    StampDeviceGroup(*n, in_grads, forward_nodes, out_grads);
    WEFT_CHECK(in_grads.size() == n->inputs.size(), kInternal)
        << "gradient rule of " << n->op->name << " returned " << in_grads.size() << " gradients for "
        << n->inputs.size() << " inputs";
    for (size_t i = 0; i < in_grads.size(); ++i) {
      if (!in_grads[i].node) continue;  // input needs no gradient (e.g. an index)
      const NodeEntry& in = n->inputs[i];
      if (on_path.count(in.node.get())) grads[{in.node.get(), in.index}].push_back(in_grads[i]);
    }
  }

  std::vector<NodeEntry> result;
  for (const NodeEntry& x : xs) {
    auto g = grads.find({x.node.get(), x.index});
    result.push_back(Aggregate(g == grads.end() ? std::vector<NodeEntry>{} : g->second, x));
  }
  return result;
}

}  // namespace weft
