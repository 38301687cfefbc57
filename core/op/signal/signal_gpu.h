// The GPU kernels of the signal family (fft.cu), attached by the declarations
// in fft.cc (Note [GPU kernels] in core/op/op_def.h).
#pragma once
#include "core/op/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ContribFftGpu);   // _contrib_fft
WEFT_GPU_KERNEL_DECL(ContribIfftGpu);  // _contrib_ifft

}  // namespace cuda
}  // namespace weft
