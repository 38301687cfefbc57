// CPU kernel of _npi_percentile (np_percentile.cc), which the GPU kernel runs
// on host copies (np_percentile.cu).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {

// out[0] = the q-th percentiles of in[0] (q: in[1] or q_scalar).
void PercentileCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace reduce_np
}  // namespace weft
