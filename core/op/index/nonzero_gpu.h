// GPU kernel of _npx_nonzero (nonzero.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NonzeroGpu);  // _npx_nonzero

}  // namespace cuda
}  // namespace weft
