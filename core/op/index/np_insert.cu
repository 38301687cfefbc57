// GPU kernel of the _npi_insert_* ops: the CPU kernel on host copies (Note
// [np.insert's three forms] in np_insert.cc: the positions come from obj's
// values, read on the host).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/index/np_insert_plan.h"
#include "core/op/index/np_insert_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpInsertKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(index_np::InsertCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpInsertGpu, NpInsertKernel)

}  // namespace cuda
}  // namespace weft
