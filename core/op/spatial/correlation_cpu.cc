// CPU kernels of Correlation and _backward_Correlation: the rule of
// correlation_rules.h over the output / input elements.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/correlation_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void Correlation(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  const spatial::CorrGeom g = spatial::CorrGeomOf(p, "Correlation", in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "Correlation", T, {
    using A = spatial::Acc<T>;
    const T* a = in[0].ptr<T>();
    const T* b = in[1].ptr<T>();
    if (req[0] != OpReq::kNull)
      ParallelFor(out[0].Size(), 2 * g.c * g.ks * g.ks, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) spatial::CorrForwardAt<T, A>(g, a, b, req[0], out[0].ptr<T>(), i);
      });
    for (int k = 1; k <= 2; ++k)
      if (req[static_cast<size_t>(k)] != OpReq::kNull)
        ParallelFor(out[static_cast<size_t>(k)].Size(), 2, [&](int64_t lo, int64_t hi) {
          for (int64_t i = lo; i < hi; ++i)
            spatial::CorrPaddedAt<T, A>(g, k == 1 ? a : b, out[static_cast<size_t>(k)].ptr<T>(), i);
        });
  })
}

void CorrelationBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::CorrGeom g = spatial::CorrGeomOf(p, "_backward_Correlation", in[1].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_Correlation", T, {
    const T* gy = in[0].ptr<T>();
    const T* a = in[1].ptr<T>();
    const T* b = in[2].ptr<T>();
    for (int k = 0; k < 2; ++k) {
      if (req[static_cast<size_t>(k)] == OpReq::kNull) continue;
      T* gx = out[static_cast<size_t>(k)].ptr<T>();
      const OpReq r = req[static_cast<size_t>(k)];
      ParallelFor(out[static_cast<size_t>(k)].Size(), 4 * g.OC() * g.ks * g.ks, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) spatial::CorrBackwardAt<T, spatial::Acc<T>>(g, gy, a, b, k, r, gx, i);
      });
    }
  })
}

}  // namespace spatial_cpu
}  // namespace weft
