// GPU kernel of _contrib_allclose: the flag is set to 1, then one thread per
// element writes 0 where the pair is not close (every writer writes the same
// value), with the CPU's rule (allclose_rules.h).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/elemwise/allclose_rules.h"
#include "core/op/elemwise/allclose_gpu.h"

namespace weft {
namespace cuda {
namespace {

void AllClose(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>&,
              const std::vector<TensorView>& out) {
  tensor::CloseRule rule;
  rule.rtol = p.GetFloat("rtol");
  rule.atol = p.GetFloat("atol");
  rule.equal_nan = p.GetBool("equal_nan");
  int32_t* o = out[0].ptr<int32_t>();
  Launch(ctx, 1, [=] WEFT_HD(int64_t) { o[0] = 1; });
  if (in[0].Size() == 0) return;
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_contrib_allclose", T, {
    const T* a = in[0].ptr<T>();
    const T* b = in[1].ptr<T>();
    Launch(ctx, in[0].Size(), [=] WEFT_HD(int64_t i) {
      if (!rule.Close(static_cast<double>(a[i]), static_cast<double>(b[i]))) o[0] = 0;
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(AllCloseGpu, AllClose)

}  // namespace cuda
}  // namespace weft
