// The GPU kernels of the samplers (core/op/random/sample_ops.cu), one per
// distribution and form, attached by core/op/random/sample_ops.cc with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/random/sample_ops_rules.h"

namespace weft {
namespace cuda {

FCompute SampleGpu(sampler::Dist d, sampler::Form form);

}  // namespace cuda
}  // namespace weft
