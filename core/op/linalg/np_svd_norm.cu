// GPU kernels of _weft_np_svd_norm and its backward op (np_svd_norm.cc): the
// CPU kernels (LAPACK's gesdd) on host copies, as _npi_eig's and _npi_pinv's.
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/linalg/np_svd_norm_cpu.h"

namespace weft {
namespace cuda {
namespace {

void SvdNormGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(linalg::SvdNormCompute, ctx, p, in, req, out, in.size());
}

void SvdNormBackwardGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(linalg::SvdNormBackwardCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpSvdNormGpu, SvdNormGpu)
WEFT_GPU_KERNEL_EXPORT(NpSvdNormBackwardGpu, SvdNormBackwardGpu)

}  // namespace cuda
}  // namespace weft
