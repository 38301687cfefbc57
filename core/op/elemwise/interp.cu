// GPU kernel of _npi_interp: one thread builds the double table in scratch
// memory (interp_rules.h), then one thread per element of x looks it up.
#include <cmath>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/interp_gpu.h"
#include "core/op/elemwise/interp_rules.h"

namespace weft {
namespace cuda {
namespace {

void InterpForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t n = in[0].Size();
  const bool periodic = !p.IsNone("period");
  const int64_t tn = periodic ? n + 2 : n;
  const double period = periodic ? std::fabs(p.GetFloat("period")) : 0.0;
  WEFT_CHECK(!periodic || period != 0.0, kInvalidArgument) << "_npi_interp: 'period' must be a non-zero value";
  const bool has_left = !periodic && !p.IsNone("left"), has_right = !periodic && !p.IsNone("right");
  const double left_v = has_left ? p.GetFloat("left") : 0.0, right_v = has_right ? p.GetFloat("right") : 0.0;
  char* scratch = static_cast<char*>(Scratch(ctx, static_cast<size_t>(2 * tn) * sizeof(double) +
                                                      static_cast<size_t>(2 * n) * sizeof(int64_t)));
  double* dx = reinterpret_cast<double*>(scratch);
  double* dy = dx + tn;
  int64_t* order = reinterpret_cast<int64_t*>(dy + tn);
  int64_t* tmp = order + n;
  const OpReq r = req[0];
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_npi_interp", T, {
    const T* xp = in[0].ptr<T>();
    const T* fp = in[1].ptr<T>();
    const T* x = p.GetBool("x_is_scalar") ? nullptr : in[2].ptr<T>();
    const double x_scalar = p.GetFloat("x_scalar");
    T* y = out[0].ptr<T>();
    Launch(ctx, 1, [=] WEFT_HD(int64_t) {
      if (periodic) {
        tensor::InterpPeriodicTable(xp, fp, n, period, dx, dy, order, tmp);
      } else {
        tensor::InterpPlainTable(xp, fp, n, dx, dy);
      }
    });
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      double v = x ? static_cast<double>(x[i]) : x_scalar;
      if (periodic) v = tensor::InterpMod(v, period);
      const double left = has_left ? left_v : dy[0], right = has_right ? right_v : dy[tn - 1];
      nnm::Put(y, i, r, tensor::InterpAt(dx, dy, tn, v, left, right));
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(InterpGpu, InterpForward)

}  // namespace cuda
}  // namespace weft
