// Imperative autograd (MXNet's Imperative::RecordOp / Backward; docs/DESIGN.md
// "Autograd"). While recording, every op whose inputs are on the tape becomes
// a graph node (core/graph/graph.h) holding the arrays it wrote; backward
// turns the tape into a graph, runs the symbolic gradient pass over it — the
// same one symbols use — and pushes the gradient nodes to the engine like any
// other op. Recording state is per thread, as in MXNet.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/graph/gradient.h"
#include "core/ndarray/ndarray.h"
#include "core/opdef/op_def.h"

namespace weft {

class Autograd {
 public:
  static bool IsRecording();
  static bool IsTraining();
  // Return the previous value.
  static bool SetRecording(bool on);
  static bool SetTraining(bool on);

  // attach_grad / mark_variables: `var` becomes a leaf whose gradient goes to
  // `grad` (same shape and dtype) as `req` says. The tape restarts at it.
  static void MarkVariable(NDArray* var, const NDArray& grad, GradReq req);

  // Called by InvokeParsed after an op is pushed while recording: when some
  // input is on the tape, records the op and tags every output (`outputs`
  // holds all of them, hidden ones included).
  static void RecordOp(const OpDef& op, const Params& params, const std::vector<NDArray>& inputs,
                       std::vector<NDArray>* outputs);

  // Gradients of sum_i <heads[i], head_grads[i]> (a none head gradient means
  // ones). With `variables` empty: every marked variable the heads depend on
  // gets its gradient written to its grad array by its grad_req, and nothing
  // is returned. Otherwise (autograd.grad) the gradients of `variables` are
  // returned and no grad array is touched. create_graph records the backward
  // ops, so the result can be differentiated again; without retain_graph the
  // arrays the tape saved are released and a second backward through it is an
  // error.
  // Note [Views on the tape]: a view (NDArray::Reshape, Slice, At) taken of
  // an array on the tape while recording is recorded as the op computing it
  // (`op` with `attrs`, one input), so gradients flow through views as through
  // copies (MXNet's ReshapeWithRecord, SliceWithRecord, AtWithRecord). No-op
  // otherwise. `view` gets the tape entry.
  static void RecordView(const std::string& op, const std::vector<std::pair<std::string, std::string>>& attrs,
                         const NDArray& input, NDArray* view);

  // Custom functions (autograd.Function): a front end computes the outputs
  // itself and records them as one tape node; at backward the node's
  // gradient is asked of the front end through `backward`, on the thread
  // running backward (no engine worker is involved). `release` is called
  // when the node dies. Set once per process.
  // Returns one gradient per input of the function (num_inputs of them).
  using CustomBackward =
      std::function<std::vector<NDArray>(int64_t id, const std::vector<NDArray>& out_grads, size_t num_inputs)>;
  using CustomRelease = std::function<void(int64_t id)>;
  static void SetCustomCallbacks(CustomBackward backward, CustomRelease release);
  static void RecordCustom(int64_t id, const std::vector<NDArray>& inputs, std::vector<NDArray>* outputs);

  // A piece of graph the core runs itself (a hybridized block's CachedOp)
  // recorded as one tape node: `backward` gets the outputs' gradients and
  // returns one gradient per input (none where the input was not on the tape,
  // which gets none). `targets` has one entry per input: where Backward will
  // store that gradient (a marked variable's grad array, grad_req write, when
  // this node is its only source), or none; a gradient returned in its target
  // is not copied again. `keep_alive` lives as long as the node.
  using OpaqueBackward = std::function<std::vector<NDArray>(const std::vector<NDArray>& out_grads,
                                                            const std::vector<NDArray>& targets)>;
  // The gradient array of a marked variable with grad_req write; none otherwise.
  static NDArray WriteTarget(const NDArray& var);
  // `replay` (may be empty) recomputes the node's outputs from given inputs
  // as ordinary recorded ops; a backward with create_graph uses it to
  // differentiate the node twice (Note [Replaying an opaque node]).
  using OpaqueReplay = std::function<std::vector<NDArray>(const std::vector<NDArray>& inputs)>;
  static void RecordOpaque(const std::string& name, const std::vector<NDArray>& inputs, std::vector<NDArray>* outputs,
                           OpaqueBackward backward, std::shared_ptr<void> keep_alive, OpaqueReplay replay = nullptr);

  // Whether a backward wrote var's gradient since the mark was last cleared
  // (Note [Fresh gradients]); false for an array that is not a marked variable.
  static bool FreshGrad(const NDArray& var);
  static void SetFreshGrad(const NDArray& var, bool fresh);

  static std::vector<NDArray> Backward(const std::vector<NDArray>& heads, const std::vector<NDArray>& head_grads,
                                       const std::vector<NDArray>& variables, bool retain_graph, bool create_graph,
                                       bool is_train);
};

}  // namespace weft
