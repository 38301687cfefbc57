// GPU kernel of _npi_full_like (core/op/init/np_full_like.cc): the fill of
// _full (init.cu), the value converted to the output's dtype.
#include "core/op/common/gpu_kernel.h"
#include "core/op/init/np_full_like_gpu.h"

namespace weft {
namespace cuda {
namespace {

void FullLike(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const double value = p.GetFloat("fill_value");
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_npi_full_like", T, {
    T* o = out[0].ptr<T>();
    const T v = static_cast<T>(value);
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { Assign(o, i, r, v); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpFullLikeGpu, FullLike)  // _npi_full_like

}  // namespace cuda
}  // namespace weft
