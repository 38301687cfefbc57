// GPU kernels of _npi_pad and _backward_npi_pad (np_pad.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpPadGpu);          // _npi_pad
WEFT_GPU_KERNEL_DECL(BackwardNpPadGpu);  // _backward_npi_pad

}  // namespace cuda
}  // namespace weft
