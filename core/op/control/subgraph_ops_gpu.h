// The GPU kernels of the control-flow operators (subgraph_ops.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ForeachGpu);             // _foreach
WEFT_GPU_KERNEL_DECL(ForeachBackwardGpu);     // _backward_foreach
WEFT_GPU_KERNEL_DECL(WhileLoopGpu);           // _while_loop
WEFT_GPU_KERNEL_DECL(WhileLoopBackwardGpu);   // _backward_while_loop
WEFT_GPU_KERNEL_DECL(CondGpu);                // _cond
WEFT_GPU_KERNEL_DECL(CondBackwardGpu);        // _backward_cond

}  // namespace cuda
}  // namespace weft
