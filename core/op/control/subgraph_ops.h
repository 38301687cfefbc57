// The control-flow operators _foreach, _while_loop and _cond (MXNet 1.9.1's
// subgraph operators) and their backward ops.
//
// Note [Subgraph operators]
// A control-flow node carries its graphs (core/graph/subgraphs.h: kept with
// the node, reachable from its Params): _foreach the body; _while_loop the condition
// and the step function; _cond the predicate, the then and the else branch.
// Each is an ordinary Symbol over its own variables; the node's attributes
// say which node input feeds which graph input (positions in the graph's
// ListInputs(), MXNet's *_locs), so the symbol JSON writes them as MXNet
// does: a "subgraphs" list of complete graphs on the node. num_args counts
// the graphs too (MXNet passes them as leading inputs): a _foreach node has
// num_args - 1 inputs, _while_loop num_args - 2, _cond num_args - 3.
// Inference runs the graph passes over the subgraph (foreach's outputs gain
// the step axis in front, while_loop's max_iterations). The kernels run the
// subgraph once per step through the imperative path; they live above the op
// layer (core/executor/subgraph_kernels.cc, installed through
// SetSubgraphKernel). On a GPU the node's arrays are copied to the host and
// the subgraph runs there (subgraph_ops.cu says why), as Custom does.
// The gradient of a node is one backward node carrying the forward graphs
// and their symbolic gradients (BuildGradient of each graph with respect to
// all its inputs); its kernel recomputes the forward steps and walks them
// back. A kernel called without subgraphs (weft.nd._foreach) says how to
// build the op instead.
#pragma once
#include <string>
#include <vector>

#include "core/graph/symbol.h"
#include "core/op/control/subgraph_kernel.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace control {


// What the kernels read of a node's parameters, checked against its graphs.
// Graph i of the node (throws, saying how to build the op, when it has none).
const Symbol& Graph(const Params& p, size_t i);
struct ForeachLayout {
  std::vector<int64_t> data_locs, state_locs, remain_locs;  // body input positions
  int num_out_data = 0;
  int num_outputs = 0;
};
ForeachLayout ForeachOf(const Params& p);
// For each body input (ListInputs order), the node input feeding it.
std::vector<int64_t> ForeachGraphLocs(const ForeachLayout& l);
struct WhileLayout {
  std::vector<int64_t> cond_locs, func_locs;  // node input per graph input
  std::vector<int64_t> var_locs;              // func input position of each loop variable
  int num_out_data = 0;
  int64_t max_iterations = 0;
};
WhileLayout WhileOf(const Params& p);
// _cond's node input per input of graph `graph` (0 predicate, 1 then, 2 else).
std::vector<int64_t> CondLocs(const Params& p, size_t graph, const char* name);
// The name of the k-th head gradient variable of a gradient subgraph.
std::string HeadGradName(size_t k);

}  // namespace control
}  // namespace weft
