// A bound graph: passes run once at bind, then forward/backward push the
// cached node sequence to the engine — the same engine NDArray ops use, so
// `exe.forward(); exe.backward(); w -= lr * g` needs no synchronisation.
//
// Entries the executor owns live in buffers assigned by the memory planner
// (WEFT_MEMORY_PLAN=naive|inplace|coshare|both, default both); every plan is
// verified by CheckMemoryPlan at bind.
#pragma once
#include <string>
#include <vector>

#include "core/graph/memory_plan.h"
#include "core/graph/symbol.h"
#include "core/ndarray/ndarray.h"

namespace weft {

enum class GradReq : int { kNull = 0, kWrite = 1, kAdd = 3 };
GradReq ParseGradReq(const std::string& s);  // "null" | "write" | "add" (also "inplace" = write)

class GraphExecutor {
 public:
  // args/arg_grads/grad_reqs follow sym.ListArguments(); aux follows
  // ListAuxiliaryStates(). A none arg_grad requires grad_req null. Shapes and
  // dtypes are checked against inference; errors name the argument.
  GraphExecutor(const Symbol& sym, Context ctx, std::vector<NDArray> args, std::vector<NDArray> arg_grads,
                std::vector<GradReq> grad_reqs, std::vector<NDArray> aux);

  void Forward(bool is_train);
  // head_grads: one per output, or empty to use ones (loss outputs ignore them).
  void Backward(const std::vector<NDArray>& head_grads);

  const std::vector<NDArray>& outputs() const { return outputs_; }
  const std::vector<NDArray>& arg_arrays() const { return args_; }
  const std::vector<NDArray>& grad_arrays() const { return arg_grads_; }
  const std::vector<NDArray>& aux_arrays() const { return aux_; }
  // Bytes held by the executor's own entries (not arguments, gradients or aux).
  int64_t internal_bytes() const { return internal_bytes_; }
  const MemoryPlan& plan() const { return plan_; }

 private:
  struct Step {
    uint32_t node_id;
    std::vector<uint32_t> in_entries, out_entries;
  };
  void RunSteps(size_t begin, size_t end, bool is_train);

  Symbol symbol_;
  std::vector<NodeEntry> full_heads_;
  Context ctx_;
  std::vector<NDArray> args_, arg_grads_, aux_, outputs_;
  std::vector<GradReq> grad_reqs_;
  std::vector<NDArray> entries_;      // by entry id of the full graph
  std::vector<NDArray> head_grad_in_; // variables fed by Backward
  std::vector<NDArray> grad_temp_;    // per argument with grad_req add: the fresh gradient
  std::vector<Step> steps_;
  size_t num_forward_steps_ = 0;
  std::vector<const Node*> nodes_;
  int64_t internal_bytes_ = 0;
  MemoryPlan plan_;
  bool trained_forward_ = false;
};

}  // namespace weft
