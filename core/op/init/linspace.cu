// GPU kernel of _linspace (core/op/init/linspace.cc): value i is start + i * step
// computed in float64 and stored in the output dtype, as on the CPU.
#include <vector>

#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

void Linspace(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t num = p.GetInt("num");
  const double start = p.GetFloat("start"), stop = p.GetFloat("stop");
  const int64_t div = p.GetBool("endpoint") ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_linspace", T, {
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { StoreDouble(o, i, r, start + static_cast<double>(i) * step); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(LinspaceGpu, Linspace)

}  // namespace cuda
}  // namespace weft
