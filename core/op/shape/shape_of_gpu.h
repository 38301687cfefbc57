// The GPU kernels of core/op/shape/shape_of.cu (shape_array, size_array),
// attached with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ShapeArrayGpu);
WEFT_GPU_KERNEL_DECL(SizeArrayGpu);

}  // namespace cuda
}  // namespace weft
