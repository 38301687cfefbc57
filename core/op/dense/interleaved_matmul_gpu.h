// The GPU kernel of core/op/dense/interleaved_matmul.cu, attached by the op
// declarations with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

// Every _contrib_interleaved_matmul_* op and its _backward_ op (the plan
// says which products to run).
WEFT_GPU_KERNEL_DECL(InterleavedMatmulGpu);

}  // namespace cuda
}  // namespace weft
