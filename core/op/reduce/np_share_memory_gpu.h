// GPU kernel of _npi_share_memory (np_share_memory.cu), attached by
// np_share_memory.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpShareMemoryGpu);  // _npi_share_memory

}  // namespace cuda
}  // namespace weft
