// Helpers for the gradient rules that sit next to each operator's declaration
// (OpDef::gradient; gradients are symbolic, core/graph/gradient.cc). A rule
// builds ordinary nodes from registered ops; GradBuilder names them after the
// forward node and copies only the attributes the backward op accepts.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/graph/gradient.h"

namespace weft {

class GradBuilder {
 public:
  explicit GradBuilder(const NodePtr& fwd) : fwd_(fwd) {}

  // Output `index` of a new `op` node on `inputs`, named <forward>_backward[N].
  NodeEntry operator()(const std::string& op, std::vector<NodeEntry> inputs,
                       std::map<std::string, std::string> attrs = {}, uint32_t index = 0);
  // A node with several outputs (take OutputOf(node, i)).
  NodePtr Node(const std::string& op, std::vector<NodeEntry> inputs, std::map<std::string, std::string> attrs = {});
  // The forward node's attributes that are parameters of `op` (hidden
  // __keys__ and parameters `op` does not declare are dropped).
  std::map<std::string, std::string> Attrs(const std::string& op) const;
  // op with the forward attributes that `op` accepts, plus `extra`.
  NodePtr NodeWithAttrs(const std::string& op, std::vector<NodeEntry> inputs,
                        const std::map<std::string, std::string>& extra = {});

  // Shorthands for elementwise arithmetic on same-shape entries.
  NodeEntry Mul(const NodeEntry& a, const NodeEntry& b) { return (*this)("elemwise_mul", {a, b}); }
  NodeEntry Div(const NodeEntry& a, const NodeEntry& b) { return (*this)("elemwise_div", {a, b}); }
  NodeEntry Sub(const NodeEntry& a, const NodeEntry& b) { return (*this)("elemwise_sub", {a, b}); }
  NodeEntry Neg(const NodeEntry& a) { return (*this)("negative", {a}); }
  // `op` is one of the _*_scalar ops.
  NodeEntry Scalar(const std::string& op, const NodeEntry& a, double scalar);
  NodeEntry Zeros(const NodeEntry& like) { return (*this)("zeros_like", {like}); }

  const NodePtr& fwd() const { return fwd_; }
  const NodeEntry& in(size_t i) const { return fwd_->inputs[i]; }
  NodeEntry out(uint32_t i = 0) const { return OutputOf(fwd_, i); }

 private:
  std::string NextName();
  NodePtr fwd_;
  int count_ = 0;
};

// A scalar parameter as attribute text that parses back to the same double.
std::string ScalarAttr(double v);

// MXNet's MakeZeroGradNodes: zeros_like of every input (sign, round, the
// comparisons, argmax, ...).
std::vector<NodeEntry> ZeroGradients(const NodePtr& node, const std::vector<NodeEntry>& out_grads);

// Gradient of an op whose inputs were broadcast to its output: `g` (output
// shaped) summed back to the shape of input `like` (_broadcast_backward).
NodeEntry SumToShapeOf(GradBuilder& b, const NodeEntry& g, const NodeEntry& like);

// The gradients of n's inputs computed by one backward op `op` (given the
// forward's attributes it accepts) on `inputs`: its output i is the gradient
// of forward input i; inputs past its outputs get none. The usual shape of a
// layer's rule, e.g. _backward_Pooling(out_grad, data, output).
std::vector<NodeEntry> ViaBackwardOp(const NodePtr& n, const std::string& op, std::vector<NodeEntry> inputs);

}  // namespace weft
