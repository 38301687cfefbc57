// GPU kernels of _np_moveaxis, _np_roll and _npi_tril (np_layout.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpMoveAxisGpu);  // _np_moveaxis
WEFT_GPU_KERNEL_DECL(NpRollGpu);      // _np_roll
WEFT_GPU_KERNEL_DECL(NpTrilGpu);      // _npi_tril

}  // namespace cuda
}  // namespace weft
