// Predictor: the inference-only path behind c_predict_api.h. It loads a symbol
// JSON and a .params file held in memory, checks every parameter against the
// shapes inferred from the data inputs, and binds an ordinary GraphExecutor
// (no gradients) — the same passes, memory plan and engine as training.
//
// Partial outputs pick internal entries of the symbol, so only what they need
// is bound and computed. Reshape makes a new predictor for new input shapes
// that binds the same parameter arrays (shared, never copied).
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/executor/graph_executor.h"
#include "core/graph/symbol.h"
#include "core/ndarray/ndarray.h"

namespace weft {

using NamedShapes = std::vector<std::pair<std::string, Shape>>;

// Parameter arrays by variable name ("arg:"/"aux:" prefixes removed), already
// on the predictor's device. Shared by a predictor and its reshaped copies.
using ParamArrays = std::unordered_map<std::string, NDArray>;

// Reads a .params file held in memory into arrays on ctx. Keys may carry the
// "arg:"/"aux:" prefixes Module and export write, or none; a list file (no
// keys) with arrays in it, or a name given twice, is an error (kIO).
std::shared_ptr<const ParamArrays> LoadParamArrays(const void* bytes, size_t size, Context ctx);

// Resolves output names against sym's internals: an entry name as
// get_internals().list_outputs() gives it ("fc1_output"), or a node name (its
// first output). Throws kNotFound naming the unknown output.
Symbol SelectOutputs(const Symbol& sym, const std::vector<std::string>& names);

class Predictor {
 public:
  // `sym` is the graph to run (already restricted to the wanted outputs);
  // `inputs` its data inputs with their shapes. Every other variable must be in
  // `params` (kNotFound naming it) -- except a loss's label whose shape follows
  // from the inputs, which is bound to zeros -- with the shape the graph infers (kShape
  // naming it and both shapes); an input that is not a variable of the graph is
  // kNotFound, a parameter named as an input kInvalidArgument.
  Predictor(const Symbol& sym, std::shared_ptr<const ParamArrays> params, Context ctx, const NamedShapes& inputs);

  // A predictor over the same symbol and parameter arrays with the named
  // inputs at new shapes (the others keep theirs).
  std::unique_ptr<Predictor> Reshape(const NamedShapes& changes) const;

  size_t num_inputs() const { return input_names_.size(); }
  const std::string& input_name(size_t i) const { return input_names_.at(i); }
  const NDArray& input(size_t i) const { return inputs_.at(i); }
  // Index of the named input; throws kNotFound listing the inputs.
  size_t InputIndex(const std::string& name) const;
  // Copies host bytes into the named input (nbytes must match; kInvalidArgument
  // naming the input and both sizes otherwise).
  void SetInput(const std::string& name, const void* data, size_t nbytes);

  // Runs the graph in inference mode and waits for the outputs, so an
  // operator's error surfaces here with the operator's name.
  void Forward();
  // As Forward, with the ops run on the calling thread and its OpenMP team
  // capped at max_threads (0: KernelThreads(), which also caps a larger value);
  // Note [Forward on the caller] in predictor.cc.
  void ForwardOnCaller(int max_threads);

  size_t num_outputs() const { return output_names_.size(); }
  const std::string& output_name(size_t i) const { return output_names_.at(i); }
  const NDArray& output(size_t i) const;  // throws kInvalidArgument when out of range
  void GetOutput(size_t i, void* data, size_t nbytes) const;

  const ParamArrays& params() const { return *params_; }

 private:
  Symbol symbol_;
  std::shared_ptr<const ParamArrays> params_;
  Context ctx_;
  std::vector<std::string> input_names_, output_names_;
  std::vector<NDArray> inputs_;
  // Variables neither given as inputs nor in the parameter file whose shape
  // inference gives (a loss's label): zeros, so the graph binds.
  std::unordered_map<std::string, NDArray> unbound_;
  std::unique_ptr<GraphExecutor> exe_;
};

}  // namespace weft
