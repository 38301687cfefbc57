// CPU kernels of Embedding and _backward_Embedding.
#pragma once
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

// out[i, :] (req)= weight[clip(data[i]), :]; indices are truncated toward zero
// and clipped to [0, input_dim) (MXNet's clip mode). weight and out share a
// floating dtype; data may have any dtype.
void EmbeddingForward(const TensorView& data, const TensorView& weight, OpReq req, const TensorView& out);
// gweight (req)= scatter-add of gout's rows at the clipped indices.
void EmbeddingBackward(const TensorView& gout, const TensorView& data, OpReq req, const TensorView& gweight);

}  // namespace nnx_cpu
}  // namespace weft
