// GPU kernel of khatri_rao (declaration and CPU kernel: khatri_rao.cc): one
// thread per output element over khatri_rao_rules.h's rule.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/linalg/khatri_rao_rules.h"
#include "core/op/linalg/linalg_gpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void KhatriRaoT(const OpContext& ctx, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const linalg::KhatriRaoArgs<T> k = linalg::KhatriRaoArgsOf<T>(in, out);
  T* o = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) { Assign(o, i, req, linalg::KhatriRaoValue(k, i)); });
}

void KhatriRao(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_F32_F64_SWITCH(out[0].dtype, "khatri_rao", T, KhatriRaoT<T>(ctx, in, req[0], out[0]);)
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(KhatriRaoGpu, KhatriRao)

}  // namespace cuda
}  // namespace weft
