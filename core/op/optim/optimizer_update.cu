// GPU kernels of the fused optimizer updates (core/op/optim/optimizer_update.cc):
// sgd, sgd_mom, nag_mom, adam, rmsprop, ftrl, signum, signsgd. One kernel per
// kind and dtype; element i reads weight[i], grad[i] and its states, writes
// the states in place and the new weight to the output (which may be the
// weight itself), by the rule the CPU kernel runs (optim::FusedUpdateAt,
// optim_rules.h, Note [One optimizer rule]).
#include "core/op/common/gpu_kernel.h"
#include "core/op/optim/optim_rules.h"
#include "core/op/optim/optimizer_update_cpu.h"

namespace weft {
namespace cuda {
namespace {

using nnx_cpu::OptimizerArgs;
using nnx_cpu::OptimizerKind;

template <typename T, OptimizerKind kKind>
void UpdateT(const OpContext& ctx, const OptimizerArgs& args, const std::vector<TensorView>& in, OpReq req,
             const TensorView& out) {
  using A = AccT<T>;  // float for the 16-bit types: the update computes in A, states stored in T
  const nnx_cpu::OptimizerConsts<A> c = nnx_cpu::OptimizerConstsOf<A>(args);
  const T* w = in[0].ptr<T>();
  const T* g = in[1].ptr<T>();
  T* s0 = in.size() > 2 ? in[2].ptr<T>() : nullptr;
  T* s1 = in.size() > 3 ? in[3].ptr<T>() : nullptr;
  T* o = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) { Assign(o, i, req, optim::FusedUpdateAt<kKind, A>(w, g, s0, s1, i, c)); });
}

template <OptimizerKind kKind>
void Update(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  // Like the CPU kernel, a null request updates nothing (states included).
  if (req[0] == OpReq::kNull) return;
  const size_t states = optim::FusedUpdateStates(kKind);
  WEFT_CHECK(in.size() == 2 + states, kInvalidArgument)
      << p.op()->name << ": expected " << 2 + states << " inputs, got " << in.size();
  WEFT_GPU_REAL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, { UpdateT<T, kKind>(ctx, nnx_cpu::OptimizerArgsOf(p), in, req[0], out[0]); })
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(SgdUpdateGpu, Update<OptimizerKind::kSGD>)  // sgd_update
WEFT_GPU_KERNEL_EXPORT(SgdMomUpdateGpu, Update<OptimizerKind::kSGDMom>)  // sgd_mom_update
WEFT_GPU_KERNEL_EXPORT(NagMomUpdateGpu, Update<OptimizerKind::kNAG>)  // nag_mom_update
WEFT_GPU_KERNEL_EXPORT(AdamUpdateGpu, Update<OptimizerKind::kAdam>)  // adam_update
WEFT_GPU_KERNEL_EXPORT(RmspropUpdateGpu, Update<OptimizerKind::kRMSProp>)  // rmsprop_update
WEFT_GPU_KERNEL_EXPORT(FtrlUpdateGpu, Update<OptimizerKind::kFtrl>)  // ftrl_update
WEFT_GPU_KERNEL_EXPORT(SignumUpdateGpu, Update<OptimizerKind::kSignum>)  // signum_update
WEFT_GPU_KERNEL_EXPORT(SignsgdUpdateGpu, Update<OptimizerKind::kSignSGD>)  // signsgd_update

}  // namespace cuda
}  // namespace weft
