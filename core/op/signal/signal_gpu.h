// The GPU kernels of the signal family (fft.cu, count_sketch.cu), attached by
// the declarations in fft.cc and count_sketch.cc (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ContribFftGpu);   // _contrib_fft
WEFT_GPU_KERNEL_DECL(ContribIfftGpu);  // _contrib_ifft
WEFT_GPU_KERNEL_DECL(ContribCountSketchGpu);  // count_sketch.cu
WEFT_GPU_KERNEL_DECL(ContribHawkesllGpu);  // hawkes.cu
WEFT_GPU_KERNEL_DECL(ContribBackwardHawkesllGpu);  // hawkes.cu

}  // namespace cuda
}  // namespace weft
