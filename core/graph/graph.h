// The graph IR shared by Symbol, the passes and the executor (docs/DESIGN.md "Graph").
// Nodes are variables (op == nullptr) or operator applications with string
// attributes; entries are (node, output index, version). A Symbol is a list of
// output entries; the graph is everything reachable from them.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {

struct Node;
using NodePtr = std::shared_ptr<Node>;

struct NodeEntry {
  NodePtr node;
  uint32_t index = 0;
  uint32_t version = 0;  // mutation counter of a variable when consumed (FORMATS.md B.3)
};

// Note [Deep graphs]
// A graph may be any depth: a symbol file of a million chained nodes loads,
// binds, runs and frees. Nothing that walks a graph may use a stack frame
// per node, so every walk is iterative (PostOrderDFS and its users keep an
// explicit stack) and so is freeing: a node owns its inputs through
// shared_ptr, and left to itself the last reference to the head of a chain
// would release it one nested destructor per node (174k frames overflowed
// the 8 MB stack). ~Node instead moves its inputs and control deps out and
// frees them from a worklist: a node it holds the last reference to gives up
// its own inputs to the same list before it dies, so every destructor in the
// chain runs at depth one. A reference dropped by another thread at the same
// moment can at worst add one more level. Loaders bound the size instead
// (Note [Graph size limit] in json.cc).
struct Node {
  Node() = default;
  Node(const Node&) = default;
  Node& operator=(const Node&) = default;
  Node(Node&&) = default;
  Node& operator=(Node&&) = default;
  ~Node();

  const OpDef* op = nullptr;  // nullptr: a variable
  // The operator name as the user or file spelled it (an alias such as
  // "SliceChannel" stays so), so JSON round trips are byte-identical.
  std::string op_name;
  std::string name;
  // All attributes, sorted by key (as the JSON writes them): operator
  // parameters plus hidden __dunder__ keys.
  std::map<std::string, std::string> attrs;
  Params params;  // parsed operator parameters (empty for variables)
  std::vector<NodeEntry> inputs;
  std::vector<NodePtr> control_deps;
  // Mutation counter for variables (incremented when an op mutates them).
  uint32_t version = 0;
  // Data a front end keeps with the node (nnvm's Node::info): autograd stores
  // the arrays a recorded op read and wrote (core/autograd/autograd.h).
  std::shared_ptr<void> info;

  bool is_variable() const { return op == nullptr; }
  int num_outputs() const { return is_variable() ? 1 : op->NumOutputs(params); }
  int num_visible_outputs() const {
    if (is_variable()) return 1;
    return op->NumVisibleOutputs(params);
  }
  // Parses attrs into params (ignoring __hidden__ keys); throws naming the node.
  void ParseParams();

  static NodePtr Variable(const std::string& name);
  // An operator node; attributes are parsed immediately (errors name the node).
  static NodePtr Op(const OpDef& op, const std::string& name, std::map<std::string, std::string> attrs,
                    std::vector<NodeEntry> inputs);
};

// Visits every node reachable from `heads` once, in post-order DFS (inputs in
// order, then control deps) — the order of the JSON "nodes" array (FORMATS.md B.4).
void PostOrderDFS(const std::vector<NodeEntry>& heads, const std::function<void(const NodePtr&)>& visit);

// An immutable numbering of a graph for passes: node ids in post order, entry
// ids node_row_ptr[nid] + output index, and input/output lists by id.
class IndexedGraph {
 public:
  explicit IndexedGraph(const std::vector<NodeEntry>& heads);

  struct IEntry {
    uint32_t node_id;
    uint32_t index;
    uint32_t version;
  };
  struct INode {
    const Node* source;
    std::vector<IEntry> inputs;
    std::vector<uint32_t> control_deps;
  };

  size_t num_nodes() const { return nodes_.size(); }
  size_t num_entries() const { return row_ptr_.back(); }
  const INode& operator[](size_t nid) const { return nodes_[nid]; }
  const NodePtr& node_ptr(size_t nid) const { return ptrs_[nid]; }
  uint32_t entry_id(uint32_t node_id, uint32_t index) const { return row_ptr_[node_id] + index; }
  uint32_t entry_id(const IEntry& e) const { return entry_id(e.node_id, e.index); }
  uint32_t node_id(const Node* n) const { return id_of_.at(n); }
  const std::vector<uint32_t>& arg_nodes() const { return arg_nodes_; }  // all variables, ascending
  const std::vector<uint32_t>& mutable_input_nodes() const { return mutable_nodes_; }  // aux states
  const std::vector<IEntry>& outputs() const { return outputs_; }
  const std::vector<uint32_t>& row_ptr() const { return row_ptr_; }

 private:
  std::vector<INode> nodes_;
  std::vector<NodePtr> ptrs_;
  std::vector<uint32_t> row_ptr_;
  std::vector<uint32_t> arg_nodes_, mutable_nodes_;
  std::vector<IEntry> outputs_;
  std::unordered_map<const Node*, uint32_t> id_of_;
};

}  // namespace weft
