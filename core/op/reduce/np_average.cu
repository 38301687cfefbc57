// GPU kernels of _npi_average and _backward_np_average: the CPU kernels on host
// copies (Note [np.average as MXNet returns it] in np_average.cc).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/reduce/np_average_cpu.h"
#include "core/op/reduce/np_average_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpAverageKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(reduce_np::AverageCompute, ctx, p, in, req, out, in.size());
}

void NpAverageBackwardKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(reduce_np::AverageBackwardCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpAverageGpu, NpAverageKernel)
WEFT_GPU_KERNEL_EXPORT(NpAverageBackwardGpu, NpAverageBackwardKernel)

}  // namespace cuda
}  // namespace weft
