// GPU kernels of _npi_polyval and _backward_npi_polyval (polyval.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(PolyvalGpu);          // _npi_polyval
WEFT_GPU_KERNEL_DECL(BackwardPolyvalGpu);  // _backward_npi_polyval

}  // namespace cuda
}  // namespace weft
