// The GPU kernel of core/op/init/np_index_fills.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

// _npi_hanning, _npi_hamming, _npi_blackman, _npi_logspace, _npi_indices
WEFT_GPU_KERNEL_DECL(NpIndexFillGpu);

}  // namespace cuda
}  // namespace weft
