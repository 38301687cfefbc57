// GPU kernel of _npi_diag_indices_from (np_diag_indices.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpDiagIndicesGpu);  // _npi_diag_indices_from

}  // namespace cuda
}  // namespace weft
