// GPU kernels of SVMOutput and _backward_SVMOutput (core/op/loss/svm_output.cc):
// the forward copies data, the backward runs svm_output_rules.h per element.
#include <vector>

#include "core/op/common/req_hd.h"
#include "core/op/common/tensor_util.cuh"
#include "core/op/loss/svm_output_rules.h"

namespace weft {
namespace cuda {
namespace {

void SvmForward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  CopyGPU(ctx, in[0], req[0], out[0]);
}

void SvmBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const TensorView& o = in[1];
  const nnm::SvmArgs a = nnm::SvmArgsOf(p, o.shape);
  WEFT_GPU_REAL_SWITCH(o.dtype, "_backward_SVMOutput", T, {
    const T* label = in[0].ptr<T>();
    const T* op = o.ptr<T>();
    T* g = out[0].ptr<T>();
    const OpReq r = req[0];
    if (r != OpReq::kNull && a.classes > 0)
      Launch(ctx, o.Size(), [=] WEFT_HD(int64_t e) {
        const int64_t row = e / a.classes;
        nnm::Put(g, e, r, static_cast<T>(nnm::SvmGrad(a, e % a.classes, static_cast<int64_t>(label[row]),
                                                       static_cast<double>(op[e]))));
      });
    T* gl = out[1].ptr<T>();
    const OpReq rl = req[1];
    if (rl != OpReq::kNull && rl != OpReq::kAddTo)
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t e) { gl[e] = T(0); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(SVMOutputGpu, SvmForward)  // SVMOutput
WEFT_GPU_KERNEL_EXPORT(BackwardSVMOutputGpu, SvmBackward)  // _backward_SVMOutput

}  // namespace cuda
}  // namespace weft
