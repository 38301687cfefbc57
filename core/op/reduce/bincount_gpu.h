// GPU kernel of _npi_bincount (bincount.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(BincountGpu);  // _npi_bincount

}  // namespace cuda
}  // namespace weft
