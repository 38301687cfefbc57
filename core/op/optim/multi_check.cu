// GPU kernels of all_finite, multi_all_finite and multi_sum_sq. The finite
// test runs one thread per element, each thread that meets a NaN or an
// infinity writing 0 (every writer writes the same value); the sums of
// squares run one thread per array; both run the CPU's rules
// (multi_check_rules.h).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/optim/multi_check_gpu.h"
#include "core/op/optim/multi_check_rules.h"

namespace weft {
namespace cuda {
namespace {

void AllFinite(const OpContext& ctx, const char* op, const std::vector<TensorView>& in, bool init,
               const TensorView& out) {
  float* o = out.ptr<float>();
  if (init) Launch(ctx, 1, [=] WEFT_HD(int64_t) { o[0] = 1.0f; });
  for (const TensorView& x : in) {
    if (x.Size() == 0) continue;
    WEFT_GPU_REAL_SWITCH(x.dtype, op, T, {
      const T* p = x.ptr<T>();
      Launch(ctx, x.Size(), [=] WEFT_HD(int64_t i) {
        if (!optim::FiniteValue(static_cast<double>(p[i]))) o[0] = 0.0f;
      });
    });
  }
}

void AllFiniteOne(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>&, const std::vector<TensorView>& out) {
  AllFinite(ctx, "all_finite", in, p.GetBool("init_output"), out[0]);
}

void AllFiniteMany(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>&, const std::vector<TensorView>& out) {
  AllFinite(ctx, "multi_all_finite", in, p.GetBool("init_output"), out[0]);
}

void MultiSumSq(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>&,
                const std::vector<TensorView>& out) {
  float* o = out[0].ptr<float>();
  for (size_t k = 0; k < in.size(); ++k) {
    const int64_t n = in[k].Size();
    WEFT_GPU_REAL_SWITCH(in[k].dtype, "multi_sum_sq", T, {
      const T* p = in[k].ptr<T>();
      Launch(ctx, 1, [=] WEFT_HD(int64_t) { o[k] = static_cast<float>(optim::SumOfSquares(p, n)); });
    });
  }
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(AllFiniteGpu, AllFiniteOne)
WEFT_GPU_KERNEL_EXPORT(MultiAllFiniteGpu, AllFiniteMany)
WEFT_GPU_KERNEL_EXPORT(MultiSumSqGpu, MultiSumSq)

}  // namespace cuda
}  // namespace weft
