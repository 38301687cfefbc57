// GPU kernel of _npi_interp (interp.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(InterpGpu);  // _npi_interp

}  // namespace cuda
}  // namespace weft
