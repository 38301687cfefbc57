// The GPU kernel of core/op/init/np_full_like.cu, attached by the op declaration with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpFullLikeGpu);  // _npi_full_like

}  // namespace cuda
}  // namespace weft
