// GPU kernel of _npi_percentile: the CPU kernel on host copies (Note
// [np.percentile as MXNet computes it] in np_percentile.cc).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/reduce/np_percentile_cpu.h"
#include "core/op/reduce/np_percentile_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpPercentileKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(reduce_np::PercentileCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpPercentileGpu, NpPercentileKernel)

}  // namespace cuda
}  // namespace weft
