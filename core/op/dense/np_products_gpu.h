// The GPU kernels of core/op/dense/np_products.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpDotGpu);             // _np_dot
WEFT_GPU_KERNEL_DECL(BackwardNpDotGpu);     // _backward_np_dot
WEFT_GPU_KERNEL_DECL(NpMatmulGpu);          // _npi_matmul
WEFT_GPU_KERNEL_DECL(BackwardNpMatmulGpu);  // _backward_npi_matmul
WEFT_GPU_KERNEL_DECL(NpTensordotGpu);          // _npi_tensordot
WEFT_GPU_KERNEL_DECL(BackwardNpTensordotGpu);  // _backward_npi_tensordot
WEFT_GPU_KERNEL_DECL(NpTensordotIntAxesGpu);          // _npi_tensordot_int_axes
WEFT_GPU_KERNEL_DECL(BackwardNpTensordotIntAxesGpu);  // _backward_npi_tensordot_int_axes

}  // namespace cuda
}  // namespace weft
