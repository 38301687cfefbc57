// Where a control-flow node keeps its graphs (Note [Subgraph operators] in
// core/op/control/subgraph_ops.h).
//
// The node holds them in Node::info (a symbol node's info is otherwise unused:
// the tape's nodes are autograd's own), and Node::ParseParams attaches them to
// its Params (Params::Attach), so inference and kernels, which see only
// Params, can reach them; a pushed kernel's copy of the Params keeps them
// alive after the node is gone, and the last copy frees them.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/graph/symbol.h"

namespace weft {

using SubgraphList = std::vector<Symbol>;

// The ops whose nodes carry graphs (_foreach, _while_loop, _cond and their
// backward ops): OpDef::has_subgraphs, set by their declarations.
bool IsSubgraphOp(const OpDef& op);
// n's graphs (null when it has none).
std::shared_ptr<const SubgraphList> NodeSubgraphs(const Node& n);
// Gives n the graphs and parses its parameters again.
void SetNodeSubgraphs(Node* n, std::shared_ptr<const SubgraphList> graphs);
// The graphs of the node whose Params these are (null when none).
std::shared_ptr<const SubgraphList> ParamsSubgraphs(const Params& p);

}  // namespace weft
