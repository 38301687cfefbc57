// GPU kernel of _npi_choice: the CPU kernel on host copies, drawing from the
// device's generator (ctx.rng). The draws without replacement are sequential
// (Note [Choice by sampling rule] in np_choice.cc) and the output is `size`
// int64 indices, which the indexing that follows (a[indices]) reads anyway.
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/random/np_choice.h"
#include "core/op/random/np_choice_gpu.h"

namespace weft {
namespace cuda {
namespace {

void ChoiceKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(sampler::ChoiceCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpChoiceGpu, ChoiceKernel)  // _npi_choice

}  // namespace cuda
}  // namespace weft
