// The image operators on the CPU: image_kernels.h over ParallelFor.
#include "core/op/image/image_cpu.h"

#include <vector>

#include "core/op/op_util.h"

namespace weft {
namespace image {
namespace {

struct CpuExec {
  template <typename F>
  void For(int64_t n, F f) const {
    ParallelFor(n, 16, [&f](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) f(i);
    });
  }
  float* Floats(int64_t n) {
    scratch.assign(static_cast<size_t>(n), 0.f);
    return scratch.data();
  }
  std::vector<float> scratch;
};

}  // namespace

FCompute ImageCpu(ImageOp kind) {
  return [kind](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    CpuExec ex;
    RunImageOp(ex, kind, ctx, p, in, req, out);
  };
}

}  // namespace image
}  // namespace weft
