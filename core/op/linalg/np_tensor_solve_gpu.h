// The GPU kernels of core/op/linalg/np_tensor_solve.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpTensorinvGpu);             // _npi_tensorinv
WEFT_GPU_KERNEL_DECL(BackwardNpTensorinvGpu);     // _backward_npi_tensorinv
WEFT_GPU_KERNEL_DECL(NpTensorsolveGpu);           // _npi_tensorsolve
WEFT_GPU_KERNEL_DECL(BackwardNpTensorsolveGpu);   // _backward_npi_tensorsolve

}  // namespace cuda
}  // namespace weft
