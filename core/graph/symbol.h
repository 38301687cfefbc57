// Symbol: the declarative front end (MXNet 1.x semantics). A symbol is a list
// of output entries over the graph IR; composing an operator creates a node and
// missing inputs become variables named <node>_<input> (FORMATS.md B.5).
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/graph/graph.h"

namespace weft {

class Symbol {
 public:
  std::vector<NodeEntry> outputs;

  static Symbol Variable(const std::string& name, std::map<std::string, std::string> attrs = {});
  // Composes `op` with inputs given positionally (`args`, in the op's input
  // order) and/or by input name (`kwargs`); inputs still missing become new
  // variables <name>_<input name> carrying a copy of the node's attributes.
  // Mutated inputs (aux states) that are variables get their version bumped.
  // Each input symbol must have exactly one output. Throws naming op and input.
  static Symbol Compose(const OpDef& op, const std::string& name, std::map<std::string, std::string> attrs,
                        const std::vector<Symbol>& args, const std::vector<std::pair<std::string, Symbol>>& kwargs);
  static Symbol Group(const std::vector<Symbol>& symbols);

  size_t num_outputs() const { return outputs.size(); }
  Symbol operator[](size_t i) const;  // one output; throws kInvalidArgument when out of range
  Symbol GetInternals() const;        // every output of every node, in graph order
  Symbol GetChildren() const;         // the inputs of the head nodes (empty group for variables)
  Symbol Copy() const;                // deep copy of the graph (nodes are not shared)
  // Re-composition (MXNet's `sym(*args, **kwargs)`): a copy of this graph in
  // which arguments are replaced by single-output symbols, positionally in
  // ListArguments() order and/or by name. Throws naming an unknown argument,
  // too many positional symbols, or an argument given twice.
  Symbol Substitute(const std::vector<Symbol>& args, const std::vector<std::pair<std::string, Symbol>>& kwargs) const;

  std::vector<std::string> ListArguments() const;        // non-mutated variables, in DFS order
  std::vector<std::string> ListAuxiliaryStates() const;  // mutated variables, in DFS order
  std::vector<std::string> ListInputs() const;           // every variable, in DFS order
  std::vector<std::string> ListOutputs() const;          // "<node>_<output name>" or the variable name
  // Head node name when the symbol has one output node; empty otherwise.
  std::string Name() const;

  // Attributes of the head node (single-node symbols only for Set).
  bool GetAttr(const std::string& key, std::string* value) const;
  void SetAttr(const std::string& key, const std::string& value);
  // {node name: {key: value}} over the whole graph (attr_dict), or the head's (list_attr).
  std::map<std::string, std::map<std::string, std::string>> AttrDict() const;
  std::map<std::string, std::string> ListAttr() const;

  // Output names of one entry, as list_outputs writes it.
  static std::string EntryName(const NodeEntry& e);
};

}  // namespace weft
