// The gradient rules shared by the weight layers (FullyConnected, Convolution
// and Deconvolution).
#pragma once
#include <vector>

#include "core/graph/graph.h"

namespace weft {

// FullyConnected, Convolution, Deconvolution: _backward_<op>(out_grad, data,
// weight) gives (data, weight[, bias]) gradients.
std::vector<NodeEntry> WeightLayerGradient(const NodePtr& n, const std::vector<NodeEntry>& out_grads);
// Their backward ops' own gradient (second order, autograd.grad with
// create_graph); see Note [Second order of a bilinear layer].
std::vector<NodeEntry> WeightLayerSecondOrder(const NodePtr& n, const std::vector<NodeEntry>& out_grads);

}  // namespace weft
