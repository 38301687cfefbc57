// The CPU kernels of _weft_np_norm and its backward op (np_norm.cc), which
// their GPU kernels (np_norm.cu) run on host copies.
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace linalg {

void NormCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out);
void NormBackwardCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace linalg
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpNormGpu);          // _weft_np_norm (on host copies)
WEFT_GPU_KERNEL_DECL(NpNormBackwardGpu);  // _backward_weft_np_norm (on host copies)

}  // namespace cuda
}  // namespace weft
