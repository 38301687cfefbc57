// GPU kernels of the fused optimizer updates (core/op/optim/optimizer_update.cc):
// sgd, sgd_mom, nag_mom, adam, rmsprop, ftrl, signum, signsgd. One kernel per
// dtype with the kind as a runtime switch inside the body; element i reads
// weight[i], grad[i] and its states, writes the states in place and the new
// weight to the output (which may be the weight itself). Formulas, clipping
// (a negative bound is no bound; NaN passes through) and the order of the
// arithmetic are those of core/op/optim/optimizer_update_cpu.cc.
#include <cmath>
#include <limits>

#include "core/op/optim/optimizer_update_cpu.h"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

using nnx_cpu::OptimizerArgs;
using nnx_cpu::OptimizerKind;

// std::max(std::min(v, c), -c) as on the CPU (NaN in v is kept).
template <typename A>
WEFT_HD inline A Clip(A v, A c) {
  const A lo = c < v ? c : v;
  return lo < -c ? -c : lo;
}

template <typename A>
WEFT_HD inline A Sign(A v) { return v > A(0) ? A(1) : v < A(0) ? A(-1) : A(0); }

template <typename T>
void UpdateT(const OpContext& ctx, OptimizerKind kind, const OptimizerArgs& args, const std::vector<TensorView>& in,
             OpReq req, const TensorView& out) {
  using A = AccT<T>;  // float for the 16-bit types: the update computes in A, states stored in T
  const nnx_cpu::OptimizerConsts<A> c = nnx_cpu::OptimizerConstsOf<A>(args);
  const T* w = in[0].ptr<T>();
  const T* g = in[1].ptr<T>();
  T* s0 = in.size() > 2 ? in[2].ptr<T>() : nullptr;
  T* s1 = in.size() > 3 ? in[3].ptr<T>() : nullptr;
  T* o = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const A wi = static_cast<A>(w[i]);
    const A gr = c.rescale * static_cast<A>(g[i]);
    A nw = wi;
    switch (kind) {
      case OptimizerKind::kSGD:
        nw = (A(1) - c.lr * c.wd) * wi - c.lr * Clip(gr, c.clip);
        break;
      case OptimizerKind::kSGDMom: {
        const A m = c.momentum * static_cast<A>(s0[i]) - c.lr * c.wd * wi - c.lr * Clip(gr, c.clip);
        s0[i] = static_cast<T>(m);
        nw = wi + m;
        break;
      }
      case OptimizerKind::kNAG: {
        const A gg = Clip(gr, c.clip) + c.wd * wi;
        const A m = c.momentum * static_cast<A>(s0[i]) + gg;
        s0[i] = static_cast<T>(m);
        nw = wi - c.lr * (c.momentum * m + gg);
        break;
      }
      case OptimizerKind::kAdam: {
        const A gg = Clip(gr + c.wd * wi, c.clip);
        const A m = c.beta1 * static_cast<A>(s0[i]) + (A(1) - c.beta1) * gg;
        const A v = c.beta2 * static_cast<A>(s1[i]) + (A(1) - c.beta2) * gg * gg;
        s0[i] = static_cast<T>(m);
        s1[i] = static_cast<T>(v);
        nw = wi - c.lr * m / (std::sqrt(v) + c.eps);
        break;
      }
      case OptimizerKind::kRMSProp: {
        const A gg = Clip(gr + c.wd * wi, c.clip);
        const A n = (A(1) - c.gamma1) * gg * gg + c.gamma1 * static_cast<A>(s0[i]);
        s0[i] = static_cast<T>(n);
        nw = Clip(wi - c.lr * gg / std::sqrt(n + c.eps), c.clip_w);
        break;
      }
      case OptimizerKind::kFtrl: {
        const A gg = Clip(gr, c.clip);
        const A n0 = static_cast<A>(s1[i]);
        const A z = static_cast<A>(s0[i]) + gg - (std::sqrt(n0 + gg * gg) - std::sqrt(n0)) * wi / c.lr;
        const A n = n0 + gg * gg;
        s0[i] = static_cast<T>(z);
        s1[i] = static_cast<T>(n);
        nw = std::fabs(z) > c.lamda1 ? (Sign(z) * c.lamda1 - z) / ((c.beta + std::sqrt(n)) / c.lr + c.wd) : A(0);
        break;
      }
      case OptimizerKind::kSignum: {
        const A m = c.momentum * static_cast<A>(s0[i]) - (A(1) - c.momentum) * c.wd * wi - (A(1) - c.momentum) * Clip(gr, c.clip);
        s0[i] = static_cast<T>(m);
        nw = (A(1) - c.lr * c.wd_lh) * wi + c.lr * Sign(m);
        break;
      }
      case OptimizerKind::kSignSGD:
        nw = (A(1) - c.lr * c.wd) * wi - c.lr * Sign(gr);
        break;
    }
    Assign(o, i, req, nw);
  });
}


template <OptimizerKind kKind>
void Update(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  // Like the CPU kernel, a null request updates nothing (states included).
  if (req[0] == OpReq::kNull) return;
  const size_t states = kKind == OptimizerKind::kAdam || kKind == OptimizerKind::kFtrl ? 2
                        : kKind == OptimizerKind::kSGD || kKind == OptimizerKind::kSignSGD ? 0 : 1;
  WEFT_CHECK(in.size() == 2 + states, kInvalidArgument)
      << p.op()->name << ": expected " << 2 + states << " inputs, got " << in.size();
  WEFT_GPU_REAL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, { UpdateT<T>(ctx, kKind, nnx_cpu::OptimizerArgsOf(p), in, req[0], out[0]); })
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
