// The GPU kernel of core/op/random/np_multinomial.cu, attached by the op declaration with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpMultinomialGpu);  // _npi_multinomial

}  // namespace cuda
}  // namespace weft
