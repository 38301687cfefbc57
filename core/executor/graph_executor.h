// A bound graph: the passes run once at bind (exec_graph.h), then forward and
// backward push the prepared node sequence to the engine — the same engine
// NDArray ops use, so `exe.forward(); exe.backward(); w -= lr * g` needs no
// synchronisation.
//
// Entries the executor owns live in buffers assigned by the memory planner
// (WEFT_MEMORY_PLAN=naive|inplace|coshare|both, default both); every plan is
// verified by CheckMemoryPlan at bind.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/executor/exec_graph.h"
#include "core/graph/gradient.h"
#include "core/ndarray/imperative.h"
#include "core/ndarray/ndarray.h"

namespace weft {


// An optimizer update run inside the graph after the gradients (a whole
// training step per forward + backward); empty op: none.
struct InGraphUpdate {
  std::string op;
  std::map<std::string, std::string> attrs;
};

struct ExecutorOptions {
  InGraphUpdate update;
  bool pin_forward_results = true;  // see ExecGraphOptions
};

class GraphExecutor {
 public:
  // args/arg_grads/grad_reqs follow sym.ListArguments(); aux follows
  // ListAuxiliaryStates(). A none arg_grad requires grad_req null. Shapes and
  // dtypes are checked against inference; errors name the argument.
  // group2ctx (MXNet's model parallelism, Note [Device placement] in
  // core/graph/place_device.cc): the nodes of each `__ctx_group__` run on its
  // context, the others on ctx; arrays may then be on any context, and
  // `_CrossDeviceCopy` nodes join the contexts.
  GraphExecutor(const Symbol& sym, Context ctx, std::vector<NDArray> args, std::vector<NDArray> arg_grads,
                std::vector<GradReq> grad_reqs, std::vector<NDArray> aux, const InGraphUpdate& update = {},
                bool pin_forward_results = true, const std::map<std::string, Context>& group2ctx = {});

  void Forward(bool is_train);
  // Points the executor at other argument / aux arrays of the same shapes,
  // dtypes and device (a CachedOp call with new inputs); with fresh_outputs
  // the outputs get new arrays, so results handed out earlier stay intact.
  // Gradient arrays stay as bound.
  void Rebind(const std::vector<NDArray>& args, const std::vector<NDArray>& aux, bool fresh_outputs);
  // Points the gradients at other arrays of the same shapes (one per
  // argument; entries of arguments without a gradient are ignored).
  void RebindGrads(const std::vector<NDArray>& grads);
  // head_grads: one per output, or empty to use ones (loss outputs ignore them).
  void Backward(const std::vector<NDArray>& head_grads);

  const std::vector<NDArray>& outputs() const { return outputs_; }
  const std::vector<NDArray>& arg_arrays() const { return args_; }
  const std::vector<NDArray>& grad_arrays() const { return arg_grads_; }
  const std::vector<NDArray>& aux_arrays() const { return aux_; }
  // Bytes held by the executor's own entries (not arguments, gradients or aux).
  int64_t internal_bytes() const { return internal_bytes_; }
  const MemoryPlan& plan() const { return graph_.plan; }
  const ExecGraph& graph() const { return graph_; }
  size_t num_forward_steps() const { return forward_.size(); }
  size_t num_backward_steps() const { return backward_.size(); }
  // Every step with its inputs, outputs and their storage, then the plan
  // summary and "Total N MB allocated" (MXNet's debug_str).
  std::string DebugStr() const;

 private:
  struct Step {
    uint32_t node_id;
    std::shared_ptr<const PreparedOp> op;
  };
  void RunSteps(const std::vector<Step>& steps, bool is_train);
  Context NodeContext(size_t nid) const { return graph_.node_ctx.empty() ? ctx_ : graph_.node_ctx[nid]; }
  void PrepareSteps();

  Symbol symbol_;
  Context ctx_;
  std::vector<NDArray> args_, arg_grads_, aux_, outputs_;
  std::vector<GradReq> grad_reqs_;
  ExecGraph graph_;
  std::vector<NDArray> entries_;      // by entry id
  std::vector<NDArray> head_grad_in_; // variables fed by Backward
  std::vector<NDArray> grad_temp_;    // per argument: a gradient to copy (write) or add (add) after backward
  std::vector<NDArray> states_;       // optimizer states of an in-graph update
  std::vector<std::shared_ptr<const PreparedOp>> fill_ones_;  // per head gradient
  std::vector<Step> forward_, backward_;
  int64_t internal_bytes_ = 0;
  bool trained_forward_ = false;
};

}  // namespace weft
