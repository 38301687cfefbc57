// CachedOp (MXNet's CachedOp, behind Gluon's hybridize): a symbol called like
// an operator on NDArrays. Outside autograd recording each input signature
// (shapes, dtypes, device) gets one bound executor — passes, fusion and the
// memory plan run once — and later calls rebind it to the new arrays. While
// recording, the graph's nodes are pushed one by one from C++ through
// InvokeParsed, so the autograd tape records them like imperative ops and
// backward differentiates through the graph.
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

 private:
  std::vector<NDArray> InvokeRecorded(const std::vector<NDArray>& inputs, bool is_train);

  Symbol sym_;
  std::vector<std::string> input_names_, arg_names_, aux_names_;
  std::map<std::string, std::unique_ptr<GraphExecutor>> executors_;  // by input signature and mode
};

}  // namespace weft
