// CPU kernels of _npi_ediff1d and _npi_backward_ediff1d (np_ediff1d.cc), which
// the GPU kernels run on host copies (np_ediff1d.cu).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {

// out[0] = [to_begin..., ary.flat[1:] - ary.flat[:-1], to_end...].
void Ediff1dCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out);

// From (out_grad, ary[, to_begin][, to_end]): the gradients of the array inputs.
void Ediff1dBackwardCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace reduce_np
}  // namespace weft
