// GPU kernel of _histogram: one thread per bin counts the elements that fall
// in it (no atomics: every count has one writer), the CPU's bin rules
// (histogram_rules.h).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/reduce/histogram_rules.h"
#include "core/op/reduce/histogram_gpu.h"

namespace weft {
namespace cuda {
namespace {

void Histogram(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>&,
               const std::vector<TensorView>& out) {
  const bool given = in.size() > 1;
  const tensor::UniformBins bins = given ? tensor::UniformBins{} : tensor::HistogramBinsOf(p, in[0].shape);
  const int64_t nb = out[0].Size(), n = in[0].Size();
  int64_t* c = out[0].ptr<int64_t>();
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_histogram", T, {
    const T* x = in[0].ptr<T>();
    T* e = out[1].ptr<T>();
    const T* ei = given ? in[1].ptr<T>() : nullptr;
    Launch(ctx, nb + 1, [=] WEFT_HD(int64_t k) { e[k] = given ? ei[k] : static_cast<T>(bins.Edge(k)); });
    Launch(ctx, nb, [=] WEFT_HD(int64_t k) {
      int64_t cnt = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(x[i]);
        const int64_t b = given ? tensor::BinOfEdges(ei, nb, v) : bins.BinOf(v);
        cnt += b == k ? 1 : 0;
      }
      c[k] = cnt;
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(HistogramGpu, Histogram)

}  // namespace cuda
}  // namespace weft
