// CPU kernels of GridGenerator, BilinearSampler, SpatialTransformer and their
// backward ops: the rules of sampler_rules.h over the output elements / planes.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/sampler_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {
namespace {

template <typename F>
void Each(int64_t n, int64_t cost, F f) {
  ParallelFor(n, cost, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) f(i);
  });
}

}  // namespace

void GridGenerator(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                   const std::vector<TensorView>& out) {
  const spatial::GridGeom g = spatial::GridGeomOf(p, out[0].shape);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "GridGenerator", T, {
    using A = spatial::Acc<T>;
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    T* dst = out[1].ptr<T>();
    if (req[0] != OpReq::kNull)
      Each(out[0].Size(), 8, [&](int64_t i) { spatial::GridForwardAt<T, A>(g, x, req[0], y, i); });
    if (req[1] != OpReq::kNull) Each(out[1].Size(), 4, [&](int64_t i) { spatial::GridDstAt<T, A>(g, dst, i); });
  })
}

void GridGeneratorBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const spatial::GridGeom g = spatial::GridGeomOf(p, in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_GridGenerator", T, {
    const T* gy = in[0].ptr<T>();
    T* gx = out[0].ptr<T>();
    Each(out[0].Size(), g.affine ? 2 * g.h * g.w : 2,
         [&](int64_t i) { spatial::GridBackwardAt<T, spatial::Acc<T>>(g, gy, req[0], gx, i); });
  })
}

void BilinearSampler(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                     const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[0].shape, out[0].shape, false);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "BilinearSampler", T, {
    using A = spatial::Acc<T>;
    const T* x = in[0].ptr<T>();
    const T* grid = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    T* tmp = out[1].ptr<T>();
    if (req[0] != OpReq::kNull)
      Each(out[0].Size(), 16, [&](int64_t i) { spatial::SamplerForwardAt<T, A>(g, x, grid, req[0], y, i); });
    if (req[1] != OpReq::kNull) Each(out[1].Size(), 2, [&](int64_t i) { spatial::SamplerTmpAt<T, A>(g, grid, tmp, i); });
  })
}

void BilinearSamplerBackward(const OpContext&, const Params&, const std::vector<TensorView>& in,
                             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[1].shape, in[0].shape, false);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_BilinearSampler", T, {
    using A = spatial::Acc<T>;
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* grid = in[2].ptr<T>();
    if (req[0] != OpReq::kNull)
      Each(g.n * g.c, 16 * g.oh * g.ow, [&](int64_t i) {
        spatial::SamplerBackwardDataPlane<T, A>(g, gy, grid, req[0], out[0].ptr<T>(), i);
      });
    if (req[1] != OpReq::kNull)
      Each(out[1].Size(), 16 * g.c, [&](int64_t i) {
        spatial::SamplerBackwardGridAt<T, A>(g, gy, x, grid, req[1], out[1].ptr<T>(), i);
      });
  })
}

void SpatialTransformer(const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[0].shape, out[0].shape, true);
  spatial::GridGeom gd;
  gd.h = g.oh;
  gd.w = g.ow;
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "SpatialTransformer", T, {
    using A = spatial::Acc<T>;
    const T* x = in[0].ptr<T>();
    const T* loc = in[1].ptr<T>();
    if (req[0] != OpReq::kNull)
      Each(out[0].Size(), 24, [&](int64_t i) { spatial::SamplerForwardAt<T, A>(g, x, loc, req[0], out[0].ptr<T>(), i); });
    if (req[1] != OpReq::kNull) Each(out[1].Size(), 4, [&](int64_t i) { spatial::GridDstAt<T, A>(gd, out[1].ptr<T>(), i); });
    if (req[2] != OpReq::kNull) Each(out[2].Size(), 8, [&](int64_t i) { spatial::GridSrcAt<T, A>(g, loc, out[2].ptr<T>(), i); });
  })
}

void SpatialTransformerBackward(const OpContext&, const Params&, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::SamplerGeom g = spatial::SamplerGeomOf(in[1].shape, in[0].shape, true);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_SpatialTransformer", T, {
    using A = spatial::Acc<T>;
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* loc = in[2].ptr<T>();
    if (req[0] != OpReq::kNull)
      Each(g.n * g.c, 24 * g.oh * g.ow, [&](int64_t i) {
        spatial::SamplerBackwardDataPlane<T, A>(g, gy, loc, req[0], out[0].ptr<T>(), i);
      });
    if (req[1] != OpReq::kNull)
      Each(out[1].Size(), 24 * g.c * g.oh * g.ow, [&](int64_t i) {
        spatial::TransformerBackwardLocAt<T, A>(g, gy, x, loc, req[1], out[1].ptr<T>(), i);
      });
  })
}

}  // namespace spatial_cpu
}  // namespace weft
