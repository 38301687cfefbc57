// GPU kernels of _npi_polyval and _backward_npi_polyval: one thread per
// element of x (the value, x's gradient) and one per coefficient (p's
// gradient), running polyval_rules.h as the CPU kernel does.
#include <type_traits>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/elemwise/polyval_gpu.h"
#include "core/op/elemwise/polyval_rules.h"

namespace weft {
namespace cuda {
namespace {

void PolyvalForward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t n = in[0].Size();
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_npi_polyval", T, {
    if constexpr (std::is_same<T, bool>::value) {
      UnsupportedDType("_npi_polyval", out[0].dtype);
    } else {
      using A = typename tensor::PolyArithOf<T>::type;
      const T* p = in[0].ptr<T>();
      const T* x = in[1].ptr<T>();
      T* y = out[0].ptr<T>();
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
        nnm::Put(y, i, r, static_cast<A>(tensor::PolyvalAt(p, n, x[i])));
      });
    }
  });
}

void PolyvalBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t n = in[1].Size(), m = in[2].Size();
  const OpReq rp = req[0], rx = req[1];
  WEFT_GPU_REAL_SWITCH(in[2].dtype, "_backward_npi_polyval", T, {
    const T* g = in[0].ptr<T>();
    const T* pv = in[1].ptr<T>();
    const T* xv = in[2].ptr<T>();
    if (rp != OpReq::kNull && n > 0) {
      T* gp = out[0].ptr<T>();
      Launch(ctx, n, [=] WEFT_HD(int64_t k) { tensor::PolyvalCoefGrad<T, double>(k, n, g, xv, m, rp, gp); });
    }
    if (rx != OpReq::kNull && m > 0) {
      T* gx = out[1].ptr<T>();
      Launch(ctx, m, [=] WEFT_HD(int64_t i) {
        nnm::Put(gx, i, rx, static_cast<double>(g[i]) * tensor::PolyvalSlope(pv, n, static_cast<double>(xv[i])));
      });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(PolyvalGpu, PolyvalForward)
WEFT_GPU_KERNEL_EXPORT(BackwardPolyvalGpu, PolyvalBackward)

}  // namespace cuda
}  // namespace weft
