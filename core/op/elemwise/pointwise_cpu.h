// CPU kernels of the parametrised pointwise ops (pointwise_rules.h).
#pragma once
#include "core/op/elemwise/pointwise_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace pointwise {

// The CPU kernel of an op of `kind` (floating dtypes; others throw kDType
// naming `name`): out (req)= PointValue over the elements of the data input.
FCompute PointwiseCompute(PointKind kind, const char* name);

}  // namespace pointwise
}  // namespace weft
