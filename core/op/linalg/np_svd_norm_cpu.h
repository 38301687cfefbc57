// The CPU kernels of _weft_np_svd_norm and its backward op (np_svd_norm.cc),
// which their GPU kernels (np_svd_norm.cu) run on host copies.
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace linalg {

void SvdNormCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out);
void SvdNormBackwardCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace linalg
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpSvdNormGpu);          // _weft_np_svd_norm (on host copies)
WEFT_GPU_KERNEL_DECL(NpSvdNormBackwardGpu);  // _backward_weft_np_svd_norm (on host copies)

}  // namespace cuda
}  // namespace weft
