#include "core/op/optim/optimizer_update_cpu.h"

#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

// Note [Branch-free updates]
// The kind is a template argument and "no clipping" (a negative bound) is an
// infinite bound, so the per-element loop has no branches and vectorises; a
// switch on the kind inside the loop made sgd_update 5x slower than the two
// NDArray ops (w -= lr * g) it replaces. ClipTo keeps NaN (min/max argument
// order: a comparison with NaN is false and returns v). The element's rule is
// optim::FusedUpdateRule (optim_rules.h), which the GPU kernels call too.
template <typename T, OptimizerKind kind, bool kAddTo>
void UpdateT(const OptimizerArgs& args, const std::vector<TensorView>& in, const TensorView& out) {
  using A = Acc<T>;
  const OpReq req = kAddTo ? OpReq::kAddTo : OpReq::kWriteTo;
  const OptimizerConsts<A> c = OptimizerConstsOf<A>(args);
  const T* w = in[0].ptr<T>();
  const T* g = in[1].ptr<T>();
  T* s0 = in.size() > 2 ? in[2].ptr<T>() : nullptr;
  T* s1 = in.size() > 3 ? in[3].ptr<T>() : nullptr;
  T* o = out.ptr<T>();
  ParallelFor(out.Size(), 8, [&](int64_t b, int64_t e) {
    // The update runs in place (out is the weight), where GCC's runtime alias
    // check sees o == w and falls back to the scalar loop; element i touches
    // only index i of every array, so the vector loop is safe without it
    // (3x faster over an MLP's 669k parameters).
#pragma GCC ivdep
    for (int64_t i = b; i < e; ++i) Store(req, o + i, optim::FusedUpdateAt<kind, A>(w, g, s0, s1, i, c));
  });
}

template <typename T>
void DispatchKind(OptimizerKind kind, const OptimizerArgs& a, const std::vector<TensorView>& in, OpReq req,
                  const TensorView& out) {
  const bool add = req == OpReq::kAddTo;
  switch (kind) {
#define WEFT_UPDATE_CASE(K)                                  \
  case OptimizerKind::K:                                     \
    if (add) UpdateT<T, OptimizerKind::K, true>(a, in, out); \
    else UpdateT<T, OptimizerKind::K, false>(a, in, out);    \
    break;
    WEFT_UPDATE_CASE(kSGD)
    WEFT_UPDATE_CASE(kSGDMom)
    WEFT_UPDATE_CASE(kNAG)
    WEFT_UPDATE_CASE(kAdam)
    WEFT_UPDATE_CASE(kRMSProp)
    WEFT_UPDATE_CASE(kFtrl)
    WEFT_UPDATE_CASE(kSignum)
    WEFT_UPDATE_CASE(kSignSGD)
#undef WEFT_UPDATE_CASE
  }
}

}  // namespace

void OptimizerUpdate(OptimizerKind kind, const OptimizerArgs& a, const std::vector<TensorView>& in, OpReq req,
                     const TensorView& out) {
  if (req == OpReq::kNull) return;
  WEFT_NNX_FLOAT_SWITCH(out.dtype, "optimizer update", T, { DispatchKind<T>(kind, a, in, req, out); })
}

OptimizerArgs OptimizerArgsOf(const Params& p) {
  const OpDef& op = *p.op();
  OptimizerArgs a;
  auto get = [&](const char* n, double* v) {
    if (op.ParamIndex(n) >= 0) *v = p.GetFloat(n);
  };
  get("lr", &a.lr);
  get("wd", &a.wd);
  get("rescale_grad", &a.rescale_grad);
  get("clip_gradient", &a.clip_gradient);
  get("momentum", &a.momentum);
  get("beta1", &a.beta1);
  get("beta2", &a.beta2);
  get("epsilon", &a.epsilon);
  get("gamma1", &a.gamma1);
  get("clip_weights", &a.clip_weights);
  get("lamda1", &a.lamda1);
  get("beta", &a.beta);
  get("wd_lh", &a.wd_lh);
  return a;
}

}  // namespace nnx_cpu
}  // namespace weft
