// GPU kernels of _weft_np_norm and its backward op (np_norm.cc): the CPU
// kernels on host copies, as _weft_np_svd_norm's (whose kernel they call for
// the +-2 matrix norms).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/linalg/np_norm_cpu.h"

namespace weft {
namespace cuda {
namespace {

void NormGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(linalg::NormCompute, ctx, p, in, req, out, in.size());
}

void NormBackwardGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(linalg::NormBackwardCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpNormGpu, NormGpu)
WEFT_GPU_KERNEL_EXPORT(NpNormBackwardGpu, NormBackwardGpu)

}  // namespace cuda
}  // namespace weft
