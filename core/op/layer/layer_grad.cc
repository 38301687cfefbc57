// The gradient rules shared by the weight layers (FullyConnected, Convolution,
// Deconvolution): core/op/layer/layer_grad.h.
#include "core/op/layer/layer_grad.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"

#include "core/opdef/op_def.h"

namespace weft {

std::vector<NodeEntry> WeightLayerGradient(const NodePtr& n, const std::vector<NodeEntry>& og) {
  return ViaBackwardOp(n, "_backward_" + n->op->name, {og[0], n->inputs[0], n->inputs[1]});
}

// Note [Second order of a bilinear layer]
// FullyConnected, Convolution and Deconvolution are out = F(X, W) + b with F
// bilinear, and _backward_<op>(o, X, W) gives dX = J_X(W)^T o, dW = J_W(X)^T o
// and db = sum(o), where J_X(W) is the map X -> F(X, W) (it depends only on W)
// and J_W(X) the map W -> F(X, W). Given gX, gW, gb, the gradients of
// <gX, dX> + <gW, dW> + <gb, db> are, by bilinearity,
//   d/do = F(gX, W) + F(X, gW) + gb      = <op>(gX, W, no bias) + <op>(X, gW, gb)
//   d/dX = J_X(gW)^T o                   = data gradient of _backward_<op>(o, X, gW)
//   d/dW = J_W(gX)^T o                   = weight gradient of _backward_<op>(o, gX, W)
// so the second order reuses the layer's own two operators (GEMMs or
// convolutions) with the node's attributes.
std::vector<NodeEntry> WeightLayerSecondOrder(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const std::string fwd = n->op->name.substr(std::string("_backward_").size());
  const NodeEntry o = b.in(0), x = b.in(1), w = b.in(2);
  const NodeEntry from_gx = OutputOf(b.NodeWithAttrs(fwd, {og[0], w}, {{"no_bias", "True"}}));
  std::vector<NodeEntry> with_gw = {x, og[1]};
  if (n->num_outputs() > 2) with_gw.push_back(og[2]);
  const NodeEntry from_gw = OutputOf(b.NodeWithAttrs(fwd, with_gw));
  return {b("elemwise_add", {from_gx, from_gw}),
          OutputOf(b.NodeWithAttrs(n->op->name, {o, x, og[1]}), 0),
          OutputOf(b.NodeWithAttrs(n->op->name, {o, og[0], w}), 1)};
}

}  // namespace weft
