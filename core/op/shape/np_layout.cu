// GPU kernels of the NumPy-mode layout ops of np_layout.cc: the one-strided-copy
// ones (_np_moveaxis, _npi_broadcast_to, _np_diagflat, _npi_rot90) run their
// plan by StridedCopyGPU, _np_roll and _npi_tril one thread per output element
// (np_layout_rules.h), _np_atleast_*d one copy per input.
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

// A plan of np_layout_rules.h from in[0] into out[0], zeroing first when it writes part of it.
void RunPlan(tensor::ViewPlan (*fn)(const Params&, const Shape&, const Shape&), const OpContext& ctx,
             const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const tensor::ViewPlan v = fn(p, in[0].shape, out[0].shape);
  if (v.zero_fill && req[0] != OpReq::kAddTo && out[0].Size() > 0)
    gpu::MemsetAsync(out[0].data, 0, static_cast<size_t>(out[0].Size()) * DTypeSize(out[0].dtype), StreamOf(ctx));
  StridedCopyGPU(ctx, out[0].dtype, v.shape, in[0].data, v.src_off, v.src_stride, out[0].data, v.dst_off,
                 v.dst_stride, req[0]);
}

void NpBroadcastTo(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunPlan(tensor::NpBroadcastToPlan, ctx, p, in, req, out);
}
void NpDiagflat(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunPlan(tensor::DiagflatPlan, ctx, p, in, req, out);
}
void NpRot90(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunPlan(tensor::Rot90Plan, ctx, p, in, req, out);
}

void NpAtLeast(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  for (size_t i = 0; i < in.size(); ++i) {
    if (req[i] == OpReq::kNull) continue;
    const int64_t n = in[i].Size();
    StridedCopyGPU(ctx, out[i].dtype, {n}, in[i].data, 0, {1}, out[i].data, 0, {1}, req[i]);
  }
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
WEFT_GPU_KERNEL_EXPORT(NpBroadcastToGpu, NpBroadcastTo)
WEFT_GPU_KERNEL_EXPORT(NpDiagflatGpu, NpDiagflat)
WEFT_GPU_KERNEL_EXPORT(NpRot90Gpu, NpRot90)
WEFT_GPU_KERNEL_EXPORT(NpAtLeastGpu, NpAtLeast)

}  // namespace cuda
}  // namespace weft
