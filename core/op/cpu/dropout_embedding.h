// CPU kernels of Dropout (mask draws; the masking itself is a broadcast
// multiply, elemwise_cpu::BroadcastBinaryKernel) and Embedding.
#pragma once
#include <random>

#include "core/op/op_def.h"
#include "core/op/tensor_view.h"

namespace weft {
namespace nnx_cpu {

// mask[i] = 1/(1-p) with probability 1-p, else 0 (all 0 when p >= 1); one
// 53-bit draw per element in order, so a seeded generator reproduces it.
void DropoutMask(std::mt19937_64& gen, double p, const TensorView& mask);

// out[i, :] (req)= weight[clip(data[i]), :]; indices are truncated toward zero
// and clipped to [0, input_dim) (MXNet's clip mode). weight and out share a
// floating dtype; data may have any dtype.
void EmbeddingForward(const TensorView& data, const TensorView& weight, OpReq req, const TensorView& out);
// gweight (req)= scatter-add of gout's rows at the clipped indices.
void EmbeddingBackward(const TensorView& gout, const TensorView& data, OpReq req, const TensorView& gweight);

}  // namespace nnx_cpu
}  // namespace weft
