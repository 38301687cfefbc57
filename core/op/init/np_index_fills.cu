// GPU kernel of _npi_hanning, _npi_hamming, _npi_blackman, _npi_logspace and
// _npi_indices (np_index_fills.cc): one thread per element running
// np_index_fills_rules.h (Note [Arrays computed from their index]).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/init/np_index_fills_gpu.h"
#include "core/op/init/np_index_fills_rules.h"

namespace weft {
namespace cuda {
namespace {

void IndexFill(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  Shape shape;
  const tensor::IndexFillRule r = tensor::IndexFillRuleOf(p, &shape);
  const OpReq q = req[0];
  WEFT_GPU_ALL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, {
    T* o = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { tensor::IndexFillStore<T>(r, i, q, o); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpIndexFillGpu, IndexFill)  // _npi_hanning ... _npi_indices

}  // namespace cuda
}  // namespace weft
