// The GPU kernels of core/op/detect/detect.cu (one per row of
// WEFT_DETECT_KERNELS), attached with set_compute_gpu(WEFT_GPU(...)).
#pragma once
#include "core/op/detect/detect_kernels.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

#define WEFT_DETECT_GPU_DECL(name, ...) WEFT_GPU_KERNEL_DECL(name##Gpu);
WEFT_DETECT_KERNELS(WEFT_DETECT_GPU_DECL)
#undef WEFT_DETECT_GPU_DECL

}  // namespace cuda
}  // namespace weft
