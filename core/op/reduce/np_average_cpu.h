// CPU kernels of _npi_average and _backward_np_average (np_average.cc), which
// the GPU kernels run on host copies (np_average.cu).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {

// out[0] = the (weighted) average of in[0] over `axis`; out[1] (returned=True)
// the sum of weights (Note [np.average as MXNet returns it]).
void AverageCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out);

// From (out_grad, a[, weights]): the gradients of a (and of weights).
void AverageBackwardCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace reduce_np
}  // namespace weft
