#include "core/graph/graph.h"

#include "core/graph/subgraphs.h"

#include <unordered_set>

#include "core/base/error.h"
#include "core/opdef/op_rules.h"

namespace weft {

void Node::ParseParams() {
  if (is_variable()) return;
  std::vector<std::pair<std::string, std::string>> list(attrs.begin(), attrs.end());
  try {
    params = Params::Parse(*op, list);
  } catch (const Error& e) {
    throw Error(e.status(), "node '" + name + "': " + e.what());
  }
  // Note [Subgraph operators]: a control-flow node's Params carry its graphs.
  params.Attach(NodeSubgraphs(*this));
}

namespace {

// Moves n's references to other nodes out: the ones whose last holder n was
// go to `orphans` (Note [Deep graphs]); the others are only released. One
// node read twice by n is released once, then adopted as the orphan it is.
void ReleaseInputs(Node* n, std::vector<NodePtr>* orphans) {
  auto release = [orphans](NodePtr& p) {
    if (!p) return;
    if (p.use_count() == 1) orphans->push_back(std::move(p));
    else p.reset();
  };
  for (NodeEntry& e : n->inputs) release(e.node);
  for (NodePtr& d : n->control_deps) release(d);
}

}  // namespace

Node::~Node() {
  std::vector<NodePtr> orphans;
  ReleaseInputs(this, &orphans);
  while (!orphans.empty()) {
    NodePtr n = std::move(orphans.back());
    orphans.pop_back();
    ReleaseInputs(n.get(), &orphans);
  }  // n dies here with no node left to free below it
}

NodePtr Node::Variable(const std::string& name) {
  auto n = std::make_shared<Node>();
  n->name = name;
  return n;
}

NodePtr Node::Op(const OpDef& op, const std::string& name, std::map<std::string, std::string> attrs,
                 std::vector<NodeEntry> inputs) {
  auto n = std::make_shared<Node>();
  n->op = &op;
  n->op_name = op.name;
  n->name = name;
  n->attrs = std::move(attrs);
  n->inputs = std::move(inputs);
  n->ParseParams();
  return n;
}

void PostOrderDFS(const std::vector<NodeEntry>& heads, const std::function<void(const NodePtr&)>& visit) {
  // Iterative, so deep graphs cannot overflow the stack (Note [Deep graphs]).
  // A node is marked when first pushed: in a DAG a node met again is already
  // finished (meeting one still on the stack would take a cycle), so one hash
  // insert per edge decides, and a cyclic graph cannot make the walk loop.
  std::unordered_set<const Node*> seen;
  std::vector<std::pair<NodePtr, size_t>> stack;
  for (const NodeEntry& h : heads) {
    if (!h.node || !seen.insert(h.node.get()).second) continue;
    stack.emplace_back(h.node, 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const size_t n_in = node->inputs.size();
      if (next < n_in + node->control_deps.size()) {
        const NodePtr& child = next < n_in ? node->inputs[next].node : node->control_deps[next - n_in];
        ++next;
        if (child && seen.insert(child.get()).second) stack.emplace_back(child, 0);
        continue;
      }
      NodePtr finished = std::move(node);
      stack.pop_back();
      visit(finished);
    }
  }
}

IndexedGraph::IndexedGraph(const std::vector<NodeEntry>& heads) {
  row_ptr_.push_back(0);
  std::unordered_set<uint32_t> mutated;
  PostOrderDFS(heads, [&](const NodePtr& n) {
    uint32_t nid = static_cast<uint32_t>(nodes_.size());
    id_of_[n.get()] = nid;
    INode in;
    in.source = n.get();
    for (const NodeEntry& e : n->inputs) in.inputs.push_back({id_of_.at(e.node.get()), e.index, e.version});
    for (const NodePtr& c : n->control_deps) in.control_deps.push_back(id_of_.at(c.get()));
    if (n->op)
      for (int m : MutateInputs(*n->op, n->params))
        if (static_cast<size_t>(m) < in.inputs.size()) mutated.insert(in.inputs[static_cast<size_t>(m)].node_id);
    nodes_.push_back(std::move(in));
    ptrs_.push_back(n);
    row_ptr_.push_back(row_ptr_.back() + static_cast<uint32_t>(n->num_outputs()));
    if (n->is_variable()) arg_nodes_.push_back(nid);
  });
  for (uint32_t nid : arg_nodes_)
    if (mutated.count(nid)) mutable_nodes_.push_back(nid);
  for (const NodeEntry& h : heads) outputs_.push_back({id_of_.at(h.node.get()), h.index, h.version});
}

}  // namespace weft
