// The GPU kernels of core/op/seq/rnn.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(RNNGpu);  // RNN
WEFT_GPU_KERNEL_DECL(BackwardRNNGpu);  // _backward_RNN

}  // namespace cuda
}  // namespace weft
