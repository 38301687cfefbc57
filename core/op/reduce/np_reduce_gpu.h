// GPU kernel of the NumPy-mode reductions of np_reduce.cc (np_reduce.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpReduceGpu);  // _npi_argmax ... _npi_var, _np_sum ... _np_min (np_reduce.cc)

}  // namespace cuda
}  // namespace weft
