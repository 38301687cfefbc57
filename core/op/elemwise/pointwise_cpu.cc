// CPU kernels of the parametrised pointwise ops (pointwise_cpu.h).
#include "core/op/elemwise/pointwise_cpu.h"

#include <type_traits>
#include <vector>

#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace pointwise {
namespace {

template <typename T>
void Run(PointKind kind, const PointArgs& pa, const T* x, const T* g, OpReq req, T* out, int64_t n) {
  using A = typename std::conditional<std::is_same<T, double>::value, double, float>::type;
  const A a0 = static_cast<A>(pa.p0), a1 = static_cast<A>(pa.p1), a2 = static_cast<A>(pa.p2);
  ParallelFor(n, 4, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const A r = PointValue<A>(kind, static_cast<A>(x[i]), static_cast<A>(g[i]), a0, a1, a2);
      if (req == OpReq::kAddTo) out[i] = T(static_cast<A>(out[i]) + r);
      else out[i] = T(r);
    }
  });
}

}  // namespace

FCompute PointwiseCompute(PointKind kind, const char* name) {
  return [kind, name](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    if (req[0] == OpReq::kNull) return;
    const TensorView& x = TakesGrad(kind) ? in[1] : in[0];
    const TensorView& g = in[0];
    const PointArgs pa = ArgsOf(kind, p, x.shape);
    WEFT_NNX_FLOAT_SWITCH(out[0].dtype, name, T,
                          { Run<T>(kind, pa, x.ptr<T>(), g.ptr<T>(), req[0], out[0].ptr<T>(), out[0].Size()); });
  };
}

}  // namespace pointwise
}  // namespace weft
