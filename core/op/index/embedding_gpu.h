// The GPU kernels of core/op/index/embedding.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(EmbeddingGpu);  // Embedding
WEFT_GPU_KERNEL_DECL(BackwardEmbeddingGpu);  // _backward_Embedding

}  // namespace cuda
}  // namespace weft
