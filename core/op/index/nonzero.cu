// GPU kernel of _npx_nonzero: one thread walks x once to give every nonzero
// element its output row (a serial prefix count in scratch memory, as
// boolean_mask.cu does for its mask); then one thread per element of x writes
// its row-major index to that row.
#include <cstdint>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/index/nonzero_gpu.h"
#include "core/op/index/nonzero_rules.h"

namespace weft {
namespace cuda {
namespace {

void NonzeroForward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t n = in[0].Size();
  // a 0-d x is read as the 1-d (1,), as nonzero.cc does (MXNet 1.9.1)
  const Shape s = in[0].shape.ndim() == 0 ? Shape{1} : in[0].shape;
  const int nd = s.ndim();
  const Dims dims = ToDims(s);
  int64_t* row = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(n) * sizeof(int64_t)));
  int64_t* y = out[0].ptr<int64_t>();
  const bool add = req[0] == OpReq::kAddTo;
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_npx_nonzero", T, {
    const T* v = in[0].ptr<T>();
    Launch(ctx, 1, [=] WEFT_HD(int64_t) {
      int64_t j = 0;
      for (int64_t i = 0; i < n; ++i) row[i] = tensor::NonzeroAt(v[i]) ? j++ : -1;
    });
    Launch(ctx, n, [=] WEFT_HD(int64_t i) {
      const int64_t r = row[i];
      if (r < 0) return;
      int64_t rest = i;
      for (int d = nd - 1; d >= 0; --d) {
        const int64_t c = rest % dims[d];
        rest /= dims[d];
        y[r * nd + d] = (add ? y[r * nd + d] : 0) + c;
      }
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NonzeroGpu, NonzeroForward)

}  // namespace cuda
}  // namespace weft
