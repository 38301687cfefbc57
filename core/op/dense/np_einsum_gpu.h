// The GPU kernels of core/op/dense/np_einsum.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpEinsumGpu);          // _npi_einsum
WEFT_GPU_KERNEL_DECL(BackwardNpEinsumGpu);  // _backward_npi_einsum

}  // namespace cuda
}  // namespace weft
