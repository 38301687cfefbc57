// CPU kernel of Dropout's mask draw (the masking itself is a broadcast
// multiply, elemwise_cpu::BroadcastBinaryKernel).
#pragma once
#include <random>

#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

// mask[i] = 1/(1-p) with probability 1-p, else 0 (all 0 when p >= 1); one
// 53-bit draw per element in order, so a seeded generator reproduces it.
void DropoutMask(std::mt19937_64& gen, double p, const TensorView& mask);

}  // namespace nnx_cpu
}  // namespace weft
