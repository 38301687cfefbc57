// GPU kernels of _contrib_BilinearResize2D and its backward: the rule of
// bilinear_resize_rules.h, one index per output element / input plane.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/bilinear_resize_rules.h"

namespace weft {
namespace cuda {
namespace {

void Resize(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::ResizeGeom g = spatial::ResizeGeomOf(in[0].shape, out[0].shape, p.GetBool("align_corners"));
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_contrib_BilinearResize2D", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::ResizeForwardAt<T, AccT<T>>(g, x, r, y, i); });
  });
}

void ResizeBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_contrib_BilinearResize2D", T, {
    if (req[0] != OpReq::kNull && out[0].Size() > 0) {
      const spatial::ResizeGeom g = spatial::ResizeGeomOf(out[0].shape, in[0].shape, p.GetBool("align_corners"));
      const T* gy = in[0].ptr<T>();
      T* gx = out[0].ptr<T>();
      const OpReq r = req[0];
      Launch(ctx, g.planes, [=] WEFT_HD(int64_t i) { spatial::ResizeBackwardPlane<T, AccT<T>>(g, gy, r, gx, i); });
    }
    if (out.size() > 1 && req[1] != OpReq::kNull && req[1] != OpReq::kAddTo) {
      T* gl = out[1].ptr<T>();
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { gl[i] = T(0); });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(BilinearResizeGpu, Resize)                  // _contrib_BilinearResize2D
WEFT_GPU_KERNEL_EXPORT(BilinearResizeBackwardGpu, ResizeBackward)  // _backward_contrib_BilinearResize2D

}  // namespace cuda
}  // namespace weft
