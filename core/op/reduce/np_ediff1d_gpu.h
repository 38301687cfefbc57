// GPU kernels of _npi_ediff1d and _npi_backward_ediff1d (np_ediff1d.cu),
// attached by np_ediff1d.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpEdiff1dGpu);          // _npi_ediff1d
WEFT_GPU_KERNEL_DECL(NpEdiff1dBackwardGpu);  // _npi_backward_ediff1d

}  // namespace cuda
}  // namespace weft
