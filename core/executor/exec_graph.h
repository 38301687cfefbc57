// The graph a bind runs: every pass of docs/DESIGN.md "Graph passes" applied once,
// in order — symbolic gradient, (optional) in-graph optimizer update, shape
// and type inference, fusion, dead-entry marking and memory planning. The
// executor allocates from the result; weft_symbol_plan_memory reports it
// without allocating, so the memory report and a real bind agree.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/graph/fusion.h"
#include "core/graph/infer.h"
#include "core/graph/memory_plan.h"
#include "core/graph/symbol.h"

namespace weft {

struct ExecGraphOptions {
  // One flag per sym.ListArguments(): compute the gradient of that argument.
  std::vector<bool> arg_needs_grad;
  // A training step in one graph: after the gradients, `update_op` (an
  // optimizer update such as sgd_update or sgd_mom_update, parameters in
  // update_attrs) writes each argument that has a gradient. Its state inputs
  // become variables "<argument>_<input name>" (see ExecGraph::state_names).
  std::string update_op;
  std::map<std::string, std::string> update_attrs;
  bool fuse = true;
  PlanStrategy strategy = PlanStrategy::kBoth;
  // Keep forward results that backward reads alive to the end of the
  // schedule, so backward can run twice after one forward (Symbol executors).
  // A CachedOp training executor runs one backward per forward and turns it
  // off: those entries are freed after their last backward reader.
  bool pin_forward_results = true;
  // Model parallelism (MXNet's group2ctx, Note [Device placement] in
  // core/graph/place_device.cc): with groups, every node is placed on a context
  // (variables where var_ctx says, by name), `_CrossDeviceCopy` nodes join the
  // contexts, and fusion is off. Empty: the whole graph on one context.
  std::map<std::string, Context> group2ctx;
  Context default_ctx;
  std::unordered_map<std::string, Context> var_ctx;
};

struct ExecGraph {
  // Heads, in this order: symbol outputs, gradients (one per argument that
  // needs one, in argument order), updated arguments, then (with
  // pin_forward_results) forward entries the backward pass reads, kept alive
  // to the end of the schedule so a second backward can read them.
  std::vector<NodeEntry> heads;
  size_t num_outputs = 0, num_grads = 0, num_updates = 0;
  std::vector<size_t> grad_arg;    // argument index of each gradient head
  std::vector<std::string> head_grad_names;  // variables fed by Backward, one per output
  std::vector<std::string> state_names;      // optimizer state variables (zeros at bind)
  std::unique_ptr<IndexedGraph> g;
  ShapeInference shapes;
  TypeInference types;
  std::vector<int> phase;     // per node id: 0 forward, 1 backward and update
  std::vector<bool> external; // per entry: not planned (variables, heads the user reads)
  std::vector<bool> dead;     // per entry: produced, never read (DeadEntries)
  std::vector<int64_t> entry_bytes;
  MemoryPlan plan;
  int64_t naive_bytes = 0;    // the same graph planned with PlanStrategy::kNaive
  FusionStats fusion;
  size_t nodes_before_fusion = 0;
  // Per node id: its context (a group2ctx bind; entries on a context other than
  // default_ctx, and every copy, are external: not in the one-context plan).
  // Empty: every node on the executor's context.
  std::vector<Context> node_ctx;
  size_t cross_device_copies = 0;
};

// Input shapes and dtypes by variable name (arguments and aux states). A shape
// conflict at a variable is reported as "argument 'x' has shape (a) but the
// graph needs (b)" when leaving that one input out makes inference consistent.
ExecGraph BuildExecGraph(const Symbol& sym, const std::unordered_map<std::string, Shape>& shapes,
                         const std::unordered_map<std::string, DType>& types, const ExecGraphOptions& opt);

}  // namespace weft
