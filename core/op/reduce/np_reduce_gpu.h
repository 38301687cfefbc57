// GPU kernel of the NumPy-mode reductions of np_reduce.cc (np_reduce.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpReduceGpu);  // _npi_argmax, _npi_argmin, _np_all, _np_any, _npi_std, _npi_var

}  // namespace cuda
}  // namespace weft
