// GPU kernel of reset_arrays (reset_arrays.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ResetArraysGpu);

}  // namespace cuda
}  // namespace weft
