// GPU kernels of _npi_around and _npi_nan_to_num (np_unary_math.cu), attached
// by np_unary_math.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpAroundGpu);    // _npi_around
WEFT_GPU_KERNEL_DECL(NpNanToNumGpu);  // _npi_nan_to_num

}  // namespace cuda
}  // namespace weft
