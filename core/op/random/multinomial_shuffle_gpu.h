// The GPU kernels of core/op/random/multinomial_shuffle.cu, attached by
// multinomial.cc and shuffle.cc with set_compute_gpu(WEFT_GPU(...)) (Note [GPU
// kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(SampleMultinomialGpu);          // _sample_multinomial
WEFT_GPU_KERNEL_DECL(BackwardSampleMultinomialGpu);  // _backward_sample_multinomial
WEFT_GPU_KERNEL_DECL(ShuffleGpu);                    // _shuffle

}  // namespace cuda
}  // namespace weft
