// GPU kernels of GridGenerator, BilinearSampler, SpatialTransformer and their
// backward ops: the rules of sampler_rules.h, one index per output element or
// data plane.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/sampler_rules.h"

namespace weft {
namespace cuda {
namespace {

void Grid(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  const spatial::GridGeom g = spatial::GridGeomOf(p, out[0].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "GridGenerator", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    T* dst = out[1].ptr<T>();
    const OpReq r = req[0];
    if (r != OpReq::kNull)
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::GridForwardAt<T, AccT<T>>(g, x, r, y, i); });
    if (req[1] != OpReq::kNull)
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { spatial::GridDstAt<T, AccT<T>>(g, dst, i); });
  });
}

void GridBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const spatial::GridGeom g = spatial::GridGeomOf(p, in[0].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_GridGenerator", T, {
    const T* gy = in[0].ptr<T>();
    T* gx = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::GridBackwardAt<T, AccT<T>>(g, gy, r, gx, i); });
  });
}

void Sampler(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[0].shape, out[0].shape, false);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "BilinearSampler", T, {
    const T* x = in[0].ptr<T>();
    const T* grid = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    T* tmp = out[1].ptr<T>();
    const OpReq r = req[0];
    if (r != OpReq::kNull)
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::SamplerForwardAt<T, AccT<T>>(g, x, grid, r, y, i); });
    if (req[1] != OpReq::kNull)
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { spatial::SamplerTmpAt<T, AccT<T>>(g, grid, tmp, i); });
  });
}

void SamplerBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[1].shape, in[0].shape, false);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_BilinearSampler", T, {
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* grid = in[2].ptr<T>();
    T* gx = out[0].ptr<T>();
    T* gg = out[1].ptr<T>();
    const OpReq r0 = req[0], r1 = req[1];
    if (r0 != OpReq::kNull)
      Launch(ctx, g.n * g.c,
             [=] WEFT_HD(int64_t i) { spatial::SamplerBackwardDataPlane<T, AccT<T>>(g, gy, grid, r0, gx, i); });
    if (r1 != OpReq::kNull)
      Launch(ctx, out[1].Size(),
             [=] WEFT_HD(int64_t i) { spatial::SamplerBackwardGridAt<T, AccT<T>>(g, gy, x, grid, r1, gg, i); });
  });
}

void Transformer(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[0].shape, out[0].shape, true);
  spatial::GridGeom gd;
  gd.h = g.oh;
  gd.w = g.ow;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "SpatialTransformer", T, {
    const T* x = in[0].ptr<T>();
    const T* loc = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    T* dst = out[1].ptr<T>();
    T* src = out[2].ptr<T>();
    const OpReq r = req[0];
    if (r != OpReq::kNull)
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::SamplerForwardAt<T, AccT<T>>(g, x, loc, r, y, i); });
    if (req[1] != OpReq::kNull)
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { spatial::GridDstAt<T, AccT<T>>(gd, dst, i); });
    if (req[2] != OpReq::kNull)
      Launch(ctx, out[2].Size(), [=] WEFT_HD(int64_t i) { spatial::GridSrcAt<T, AccT<T>>(g, loc, src, i); });
  });
}

void TransformerBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[1].shape, in[0].shape, true);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_SpatialTransformer", T, {
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* loc = in[2].ptr<T>();
    T* gx = out[0].ptr<T>();
    T* gl = out[1].ptr<T>();
    const OpReq r0 = req[0], r1 = req[1];
    if (r0 != OpReq::kNull)
      Launch(ctx, g.n * g.c,
             [=] WEFT_HD(int64_t i) { spatial::SamplerBackwardDataPlane<T, AccT<T>>(g, gy, loc, r0, gx, i); });
    if (r1 != OpReq::kNull)
      Launch(ctx, out[1].Size(),
             [=] WEFT_HD(int64_t i) { spatial::TransformerBackwardLocAt<T, AccT<T>>(g, gy, x, loc, r1, gl, i); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(GridGeneratorGpu, Grid)                               // GridGenerator
WEFT_GPU_KERNEL_EXPORT(GridGeneratorBackwardGpu, GridBackward)               // _backward_GridGenerator
WEFT_GPU_KERNEL_EXPORT(BilinearSamplerGpu, Sampler)                          // BilinearSampler
WEFT_GPU_KERNEL_EXPORT(BilinearSamplerBackwardGpu, SamplerBackward)          // _backward_BilinearSampler
WEFT_GPU_KERNEL_EXPORT(SpatialTransformerGpu, Transformer)                   // SpatialTransformer
WEFT_GPU_KERNEL_EXPORT(SpatialTransformerBackwardGpu, TransformerBackward)  // _backward_SpatialTransformer

}  // namespace cuda
}  // namespace weft
