// GPU kernels of the unary math operators (core/op/elemwise/unary.cc): one
// kernel per dtype with the UnaryKind switched inside (Note [Elementwise GPU
// instantiations] in elemwise_math.cuh), the CPU's numeric rules throughout.
#include <vector>

#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/elemwise/elemwise_math.cuh"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void UnaryLaunch(const OpContext& ctx, int kind, const T* in, T* out, int64_t n, OpReq req) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    using C = elem::Acc<T>;
    elem::Put(out, i, req, elem::ToStorage<T>(elem::UnaryOp<C>(kind, static_cast<C>(in[i]))));
  });
}

}  // namespace

FCompute UnaryGpu(elemwise_cpu::UnaryKind unary_kind, const char* name) {
  const int kind = static_cast<int>(unary_kind);
  return [kind, name](const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    if (req[0] == OpReq::kNull) return;
    WEFT_GPU_ALL_SWITCH(out[0].dtype, name, T,
                        { UnaryLaunch<T>(ctx, kind, in[0].ptr<T>(), out[0].ptr<T>(), out[0].Size(), req[0]); });
  };
}

}  // namespace cuda
}  // namespace weft
