// GPU kernels of _npi_average and _backward_np_average (np_average.cu),
// attached by np_average.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpAverageGpu);          // _npi_average
WEFT_GPU_KERNEL_DECL(NpAverageBackwardGpu);  // _backward_np_average

}  // namespace cuda
}  // namespace weft
