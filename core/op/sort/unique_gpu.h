// GPU kernel of _npi_unique (unique.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(UniqueGpu);  // _npi_unique

}  // namespace cuda
}  // namespace weft
