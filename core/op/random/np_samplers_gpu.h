// The GPU kernel of core/op/random/np_samplers.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpSampleGpu);  // _npi_gumbel ... _npi_pareto, _npi_powerd, _npi_bernoulli

}  // namespace cuda
}  // namespace weft
