// GPU kernels of _contrib_arange_like and _contrib_index_array: one thread per
// output element, the plans of index_fill_rules.h.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/init/index_fill_rules.h"
#include "core/op/init/index_fill_gpu.h"

namespace weft {
namespace cuda {
namespace {

void ArangeLike(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  const OpReq r = req[0];
  if (r == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::ArangeLike a = tensor::ArangeLikeOf(p);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_contrib_arange_like", T, {
    T* o = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { Assign(o, i, r, static_cast<T>(a.At(i))); });
  });
}

void IndexArray(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const OpReq r = req[0];
  if (r == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::IndexArrayPlan plan = tensor::IndexArrayPlanOf(p, in[0].shape);
  int64_t* o = out[0].ptr<int64_t>();
  Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t k) {
    Assign(o, k, r, plan.Coord(k / plan.m, static_cast<int>(k % plan.m)));
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ArangeLikeGpu, ArangeLike)
WEFT_GPU_KERNEL_EXPORT(IndexArrayGpu, IndexArray)

}  // namespace cuda
}  // namespace weft
