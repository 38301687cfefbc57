// The GPU kernels of core/op/seq/sequence.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(SequenceMaskGpu);  // SequenceMask
WEFT_GPU_KERNEL_DECL(BackwardSequenceMaskGpu);  // _backward_SequenceMask
WEFT_GPU_KERNEL_DECL(SequenceLastGpu);  // SequenceLast
WEFT_GPU_KERNEL_DECL(BackwardSequenceLastGpu);  // _backward_SequenceLast

}  // namespace cuda
}  // namespace weft
