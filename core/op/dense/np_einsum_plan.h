// How _npi_einsum (np_einsum.cc) reads its subscripts against the operands'
// shapes, and the gather plans (Note [Einsum as one gather per output
// element], np_einsum_rules.h) of its forward and of each operand's gradient.
// Host code, shared by shape inference and both devices' kernels.
#pragma once
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/op/dense/np_einsum_rules.h"

namespace weft {
namespace tensor {

// The subscripts resolved: each operand dimension's label, the output's
// labels, every label's length (broadcast: the longest, 1 giving way).
struct EinsumSpec {
  std::vector<std::vector<int>> in_labels;
  std::vector<int> out_labels;
  std::vector<int64_t> len;
  Shape out;
};

// NumPy's (and MXNet 1.9.1's) rules: letters, at most one `...` per term,
// `->` with distinct letters that appear in the inputs, or the implicit
// output (the `...` dimensions, then the letters used once, in character
// order). Throws kInvalidArgument / kShape naming op and the subscripts.
EinsumSpec ParseEinsum(const std::string& op, const std::string& subscripts, const std::vector<Shape>& ins);

// The forward's plan: target the output, inputs the operands in order.
EinsumGather EinsumForwardGather(const EinsumSpec& spec, const std::vector<Shape>& ins);
// Operand i's gradient: target operand i, inputs out_grad and then the other
// operands in order.
EinsumGather EinsumGradGather(const EinsumSpec& spec, const std::vector<Shape>& ins, size_t i);

}  // namespace tensor
}  // namespace weft
