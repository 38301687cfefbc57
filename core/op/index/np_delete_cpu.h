// CPU kernel of _npi_delete (np_delete.cc), which the GPU kernel runs on host
// copies (np_delete.cu).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace index_np {

// out[0] = in[0] without the rows obj names along the axis.
void DeleteCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace index_np
}  // namespace weft
