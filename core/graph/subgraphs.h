// Where a control-flow node keeps its graphs (Note [Subgraph operators] in
// core/op/control/subgraph_ops.h).
//
// The node holds them in Node::info (a symbol node's info is otherwise unused:
// the tape's nodes are autograd's own), and Node::ParseParams names them in
// its Params by a hidden attribute (kSubgraphsAttr, an id into a process-wide
// table that keeps every list registered), so inference and kernels, which see
// only Params, can reach them, even after the node is gone. The table grows by
// one entry per control-flow node made (composed or loaded). A typed field on
// Params owning the graphs would be plainer and free them; it changes the two
// headers every file includes (a full rebuild), and is left for a quiet moment.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/graph/symbol.h"

namespace weft {

using SubgraphList = std::vector<Symbol>;

// The hidden attribute ParseParams adds to the Params of a node with graphs.
constexpr const char* kSubgraphsAttr = "__subgraphs__";

// The ops whose nodes carry graphs (_foreach, _while_loop, _cond and their
// backward ops).
bool IsSubgraphOp(const OpDef& op);
// n's graphs (null when it has none).
std::shared_ptr<const SubgraphList> NodeSubgraphs(const Node& n);
// Gives n the graphs and parses its parameters again.
void SetNodeSubgraphs(Node* n, std::shared_ptr<const SubgraphList> graphs);
// The id ParseParams writes for the graphs (registers them).
std::string SubgraphsId(const std::shared_ptr<const SubgraphList>& graphs);
// The graphs of the node whose Params these are (null when none).
std::shared_ptr<const SubgraphList> ParamsSubgraphs(const Params& p);

}  // namespace weft
