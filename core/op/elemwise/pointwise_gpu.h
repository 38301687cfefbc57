// GPU kernels of the parametrised pointwise ops (pointwise.cu).
#pragma once
#include "core/op/elemwise/pointwise_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

// As pointwise::PointwiseCompute, on the op's stream (float32, float64).
FCompute PointwiseGpu(pointwise::PointKind kind, const char* name);

}  // namespace cuda
}  // namespace weft
