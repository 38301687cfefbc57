// The GPU kernels of core/op/reduce/np_trace.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpTraceGpu);          // _np_trace
WEFT_GPU_KERNEL_DECL(BackwardNpTraceGpu);  // _backward_np_trace

}  // namespace cuda
}  // namespace weft
