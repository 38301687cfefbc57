// GPU kernel of _npx_constraint_check: the CPU kernel on host copies (the
// result decides a host-side error; the input is a bool array of a
// distribution's parameters, small).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/reduce/np_constraint_check.h"
#include "core/op/reduce/np_constraint_check_gpu.h"

namespace weft {
namespace cuda {
namespace {

void ConstraintCheckKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(reduce_np::ConstraintCheckCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpConstraintCheckGpu, ConstraintCheckKernel)

}  // namespace cuda
}  // namespace weft
