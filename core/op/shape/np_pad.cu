// GPU kernels of _npi_pad and _backward_npi_pad: one thread per input element
// for the centre, then one launch per axis with one thread per line running
// np_pad_rules.h (Note [Pad axis by axis, as NumPy]); launches on one stream
// run in order, as the CPU's passes do.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/shape/np_pad_gpu.h"
#include "core/op/shape/np_pad_rules.h"

namespace weft {
namespace cuda {
namespace {

void NpPadForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  WEFT_CHECK(req[0] != OpReq::kAddTo, kInvalidArgument) << "_npi_pad: accumulating (grad_req add) into its output "
                                                        << "is not supported on GPU";
  const tensor::NpPadGeom g = tensor::NpPadGeomOf(p, in[0].shape);
  const int64_t total = out[0].Size();
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_npi_pad", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    Launch(ctx, total, [=] WEFT_HD(int64_t i) { y[i] = static_cast<T>(AccT<T>(0)); });
    Launch(ctx, in[0].Size(), [=] WEFT_HD(int64_t e) { y[g.CentreOf(e)] = x[e]; });
    for (int d = 0; d < g.ndim; ++d) {
      const int64_t inner = g.InnerOf(d), len = g.out[d], before = g.before[d], n = g.in[d];
      Launch(ctx, total / len, [=] WEFT_HD(int64_t l) {
        tensor::NpPadLine(y + (l / inner) * len * inner + l % inner, inner, len, before, n, g.mode, g.value);
      });
    }
  });
}

void NpPadBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::NpPadGeom g = tensor::NpPadGeomOf(p, out[0].shape);
  WEFT_CHECK(g.mode != tensor::kPadMaximum && g.mode != tensor::kPadMinimum, kInvalidArgument)
      << "_backward_npi_pad: the gradient of modes maximum and minimum is not supported";
  const int64_t total = in[0].Size();
  const OpReq r = req[0];
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_backward_npi_pad", T, {
    const T* og = in[0].ptr<T>();
    T* w = static_cast<T*>(Scratch(ctx, static_cast<size_t>(total) * sizeof(T)));
    T* gx = out[0].ptr<T>();
    Launch(ctx, total, [=] WEFT_HD(int64_t i) { w[i] = og[i]; });
    for (int d = g.ndim - 1; d >= 0; --d) {
      const int64_t inner = g.InnerOf(d), len = g.out[d], before = g.before[d], n = g.in[d];
      Launch(ctx, total / len, [=] WEFT_HD(int64_t l) {
        tensor::NpPadLineBackward(w + (l / inner) * len * inner + l % inner, inner, len, before, n, g.mode);
      });
    }
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t e) { Assign(gx, e, r, w[g.CentreOf(e)]); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpPadGpu, NpPadForward)
WEFT_GPU_KERNEL_EXPORT(BackwardNpPadGpu, NpPadBackward)

}  // namespace cuda
}  // namespace weft
