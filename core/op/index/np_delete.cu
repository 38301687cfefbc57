// GPU kernel of _npi_delete: the CPU kernel on host copies (Note [np.delete as
// MXNet reads obj] in np_delete.cc: the kept rows come from obj's values).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/index/np_delete_cpu.h"
#include "core/op/index/np_delete_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpDeleteKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(index_np::DeleteCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpDeleteGpu, NpDeleteKernel)

}  // namespace cuda
}  // namespace weft
