// GPU kernels of _np_moveaxis (its plan run by StridedCopyGPU), _np_roll and
// _npi_tril (one thread per output element running np_layout_rules.h).
#include <vector>

#include "core/op/common/tensor_util.cuh"
#include "core/op/shape/np_layout_gpu.h"
#include "core/op/shape/np_layout_rules.h"

namespace weft {
namespace cuda {
namespace {

void NpMoveAxis(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const tensor::ViewPlan v = tensor::MoveAxisPlan(p, in[0].shape, out[0].shape);
  StridedCopyGPU(ctx, out[0].dtype, v.shape, in[0].data, v.src_off, v.src_stride, out[0].data, v.dst_off,
                 v.dst_stride, req[0]);
}

void NpRoll(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::RollGeom g = tensor::RollGeomOf(p, in[0].shape);
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_np_roll", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { Assign(y, i, r, x[tensor::RollSource(g, i)]); });
  });
}

void NpTril(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::TrilGeom g = tensor::TrilGeomOf(p, in[0].shape);
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_npi_tril", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      Assign(y, i, r, tensor::TrilKeeps(g, i) ? x[tensor::TrilSource(g, i)] : T(0.0f));
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpMoveAxisGpu, NpMoveAxis)
WEFT_GPU_KERNEL_EXPORT(NpRollGpu, NpRoll)
WEFT_GPU_KERNEL_EXPORT(NpTrilGpu, NpTril)

}  // namespace cuda
}  // namespace weft
