// GPU kernel of _npi_delete (np_delete.cu), attached by
// np_delete.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpDeleteGpu);  // _npi_delete

}  // namespace cuda
}  // namespace weft
