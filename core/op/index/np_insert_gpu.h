// GPU kernel of _npi_insert_scalar/_slice/_tensor (np_insert.cu), attached by
// np_insert.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpInsertGpu);  // _npi_insert_scalar, _npi_insert_slice, _npi_insert_tensor

}  // namespace cuda
}  // namespace weft
