// GPU kernels of _np_cumsum and _backward_np_cumsum (cumsum.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(CumsumGpu);          // _np_cumsum
WEFT_GPU_KERNEL_DECL(BackwardCumsumGpu);  // _backward_np_cumsum

}  // namespace cuda
}  // namespace weft
