// GPU kernels of the NumPy-mode stacks and their backward ops (np_stack.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpStackGpu);          // _npi_vstack, _npi_hstack, _npi_dstack, _npi_column_stack
WEFT_GPU_KERNEL_DECL(BackwardNpStackGpu);  // their _backward_npi_* ops

}  // namespace cuda
}  // namespace weft
