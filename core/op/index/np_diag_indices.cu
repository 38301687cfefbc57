// GPU kernel of _npi_diag_indices_from (np_diag_indices.cc): element i of the
// (ndim, n) output is i mod n.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/index/np_diag_indices_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpDiagIndices(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t n = out[0].shape[1];
  const OpReq r = req[0];
  int64_t* y = out[0].ptr<int64_t>();
  Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { Assign(y, i, r, i % n); });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpDiagIndicesGpu, NpDiagIndices)

}  // namespace cuda
}  // namespace weft
