// CPU kernel of add_n.
#pragma once
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace elemwise_cpu {

// out = sum of ins (one shape and dtype, any numeric dtype but bool). out may
// share memory with any input.
void AddN(const std::vector<TensorView>& ins, OpReq req, const TensorView& out);

}  // namespace elemwise_cpu
}  // namespace weft
