// GPU kernels of the NumPy-mode layout ops of np_layout.cc (np_layout.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpMoveAxisGpu);  // _np_moveaxis
WEFT_GPU_KERNEL_DECL(NpRollGpu);      // _np_roll
WEFT_GPU_KERNEL_DECL(NpTrilGpu);      // _npi_tril
WEFT_GPU_KERNEL_DECL(NpBroadcastToGpu);  // _npi_broadcast_to
WEFT_GPU_KERNEL_DECL(NpDiagflatGpu);     // _np_diagflat
WEFT_GPU_KERNEL_DECL(NpRot90Gpu);        // _npi_rot90
WEFT_GPU_KERNEL_DECL(NpAtLeastGpu);      // _np_atleast_1d, _np_atleast_2d, _np_atleast_3d

}  // namespace cuda
}  // namespace weft
