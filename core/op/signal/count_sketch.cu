// GPU kernel of _contrib_count_sketch (declaration and CPU kernel:
// count_sketch.cc): one thread per output entry over count_sketch_rules.h.
// Hash indices outside [0, out_dim) contribute nothing here (the CPU kernel
// rejects them).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/signal/count_sketch_rules.h"
#include "core/op/signal/signal_gpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void CountSketchT(const OpContext& ctx, const std::vector<TensorView>& in, OpReq req, const TensorView& out,
                  int64_t out_dim) {
  const int64_t d = in[0].shape[in[0].ndim() - 1];
  const T* data = in[0].ptr<T>();
  const T* h = in[1].ptr<T>();
  const T* s = in[2].ptr<T>();
  T* o = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    Assign(o, i, req, signal::CountSketchEntry(data, h, s, d, out_dim, i));
  });
}

void CountSketch(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_contrib_count_sketch", T,
                       CountSketchT<T>(ctx, in, req[0], out[0], p.GetInt("out_dim"));)
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ContribCountSketchGpu, CountSketch)

}  // namespace cuda
}  // namespace weft
