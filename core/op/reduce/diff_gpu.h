// GPU kernels of _npi_diff and _backward_npi_diff (diff.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(DiffGpu);          // _npi_diff
WEFT_GPU_KERNEL_DECL(BackwardDiffGpu);  // _backward_npi_diff

}  // namespace cuda
}  // namespace weft
