// GPU kernels of _npi_ediff1d and _npi_backward_ediff1d: the CPU kernels on host
// copies (Note [np.ediff1d with its ends] in np_ediff1d.cc).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/reduce/np_ediff1d_cpu.h"
#include "core/op/reduce/np_ediff1d_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpEdiff1dKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(reduce_np::Ediff1dCompute, ctx, p, in, req, out, in.size());
}

void NpEdiff1dBackwardKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(reduce_np::Ediff1dBackwardCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpEdiff1dGpu, NpEdiff1dKernel)
WEFT_GPU_KERNEL_EXPORT(NpEdiff1dBackwardGpu, NpEdiff1dBackwardKernel)

}  // namespace cuda
}  // namespace weft
