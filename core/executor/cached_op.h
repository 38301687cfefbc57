// CachedOp (MXNet's CachedOp, behind Gluon's hybridize): a symbol called like
// an operator on NDArrays. Each input signature (shapes, dtypes, device) gets
// a bound executor — passes, fusion and the memory plan run once — and later
// calls rebind it to the new arrays.
//
// Note [CachedOp under autograd]
// While recording, the call binds (once per signature) an executor that also
// computes the gradients of the inputs on the tape, runs its forward, and is
// recorded as ONE tape node whose backward runs the executor's backward: the
// whole forward + backward graph gets fusion and static memory planning, as
// MXNet's static_alloc CachedOp does. An executor is busy from that forward
// until its backward (or until the tape node dies); a second call in between
// takes another executor. A backward with create_graph replays such a node
// op by op on the tape (Note [Replaying an opaque node] in autograd.cc);
// `inline_recording=1` records the graph's nodes one by one from the start.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/executor/graph_executor.h"

namespace weft {

class CachedOp {
 public:
  // flags: static_alloc, static_shape (accepted; the executor path always
  // plans statically), anything else is an error naming it.
  CachedOp(const Symbol& sym, const std::map<std::string, std::string>& flags);

  // inputs follow sym.ListInputs() (arguments and aux states in DFS order).
  // Aux states are updated in place in training mode. Returns the outputs.
  std::vector<NDArray> Invoke(const std::vector<NDArray>& inputs);

  const Symbol& symbol() const { return sym_; }

  // Runs the graph op by op through the imperative path (recorded when recording is on).
  static std::vector<NDArray> RunInline(const Symbol& sym, const std::vector<std::string>& input_names,
                                        const std::vector<NDArray>& inputs, bool is_train);

 private:
  std::vector<NDArray> InvokeTraining(const std::vector<NDArray>& inputs, bool is_train);

  struct TrainSlot;
  bool inline_recording_ = false;
  bool dynamic_shapes_ = false;  // an op's output shape depends on input values: always RunInline
  std::map<std::string, std::vector<std::shared_ptr<TrainSlot>>> train_slots_;

  Symbol sym_;
  std::vector<std::string> input_names_, arg_names_, aux_names_;
  std::map<std::string, std::unique_ptr<GraphExecutor>> executors_;  // by input signature and mode
};

}  // namespace weft
