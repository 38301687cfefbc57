// GPU kernels of _npi_diff and _backward_npi_diff: one thread per row of the
// (outer, len, inner) view running diff_rules.h, its work row in the op's
// scratch memory (as large as the input).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/reduce/diff_gpu.h"
#include "core/op/reduce/diff_rules.h"

namespace weft {
namespace cuda {
namespace {

void DiffForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::DiffGeom g = tensor::DiffGeomOf(p, in[0].shape);
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_npi_diff", T, {
    T* w = static_cast<T*>(Scratch(ctx, static_cast<size_t>(in[0].Size()) * sizeof(T)));
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    Launch(ctx, g.outer * g.inner, [=] WEFT_HD(int64_t row) { tensor::DiffRow<T>(g, row, x, w, r, y); });
  });
}

void DiffBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::DiffGeom g = tensor::DiffGeomOf(p, in[1].shape);
  const OpReq r = req[0];
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_backward_npi_diff", T, {
    T* w = static_cast<T*>(Scratch(ctx, static_cast<size_t>(out[0].Size()) * sizeof(T)));
    const T* gy = in[0].ptr<T>();
    T* gx = out[0].ptr<T>();
    Launch(ctx, g.outer * g.inner, [=] WEFT_HD(int64_t row) { tensor::DiffBackwardRow<T>(g, row, gy, w, r, gx); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(DiffGpu, DiffForward)
WEFT_GPU_KERNEL_EXPORT(BackwardDiffGpu, DiffBackward)

}  // namespace cuda
}  // namespace weft
