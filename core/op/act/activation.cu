// GPU kernels of Activation, LeakyReLU and their backward operators
// (core/op/act/activation.cc; CPU: core/op/act/activation_cpu.cc, whose formulas these
// repeat). One kernel per direction and dtype; the activation kind is a
// runtime switch inside the body (Note [GPU kernel style] in kernel.h). rrelu
// draws its slopes with Note [GPU random draws] (gpu_random.cuh).
#include <cmath>
#include <string>

#include "core/op/act/activation_cpu.h"
#include "core/op/random/gpu_random.cuh"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

using nnx_cpu::ActKind;
using nnx_cpu::ActKindOf;
using nnx_cpu::GammaIndex;
using nnx_cpu::LeakyKind;
using nnx_cpu::LeakyKindOf;
using nnx_cpu::MakeGammaIndex;

using nnx_cpu::kInvSqrt2Pi;
using nnx_cpu::kSeluAlpha;
using nnx_cpu::kSeluLambda;
constexpr double kSqrtHalf = 0.70710678118654752440;


template <typename A>
WEFT_HD inline A SoftRelu(A x) { return x > A(20) ? x : std::log1p(std::exp(x)); }

template <typename A>
WEFT_HD inline A Sigmoid(A x) { return A(1) / (A(1) + std::exp(-x)); }

template <typename A>
WEFT_HD inline A LogSigmoid(A x) { return x < A(0) ? x - std::log1p(std::exp(x)) : -std::log1p(std::exp(-x)); }

template <typename A>
WEFT_HD inline A ActValue(ActKind k, A v) {
  switch (k) {
    case ActKind::kReLU: return v < A(0) ? A(0) : v;  // std::max(v, 0) as on the CPU: NaN stays NaN
    case ActKind::kSigmoid: return Sigmoid(v);
    case ActKind::kLogSigmoid: return LogSigmoid(v);
    case ActKind::kMish: return v * std::tanh(SoftRelu(v));
    case ActKind::kTanh: return std::tanh(v);
    case ActKind::kSoftReLU: return SoftRelu(v);
    case ActKind::kSoftSign: return v / (A(1) + std::fabs(v));
  }
  return v;
}

// g * act'(.) from the output o (relu .. log_sigmoid) or the input v (softsign, mish).
template <typename A>
WEFT_HD inline A ActGrad(ActKind k, A g, A o, A v) {
  switch (k) {
    case ActKind::kReLU: return o > A(0) ? g : A(0);
    case ActKind::kSigmoid: return g * o * (A(1) - o);
    case ActKind::kLogSigmoid: return g * (A(1) - std::exp(o));
    case ActKind::kTanh: return g * (A(1) - o * o);
    case ActKind::kSoftReLU: return g * -std::expm1(-o);
    case ActKind::kSoftSign: {
      const A d = A(1) + std::fabs(v);
      return g / (d * d);
    }
    case ActKind::kMish: {
      const A t = std::tanh(SoftRelu(v));
      return g * (t + v * (A(1) - t * t) * Sigmoid(v));
    }
  }
  return g;
}

template <typename T>
void ActForwardT(const OpContext& ctx, ActKind k, const TensorView& x, OpReq req, const TensorView& y) {
  const T* xp = x.ptr<T>();
  T* yp = y.ptr<T>();
  Launch(ctx, y.Size(), [=] WEFT_HD(int64_t i) { Assign(yp, i, req, ActValue<AccT<T>>(k, xp[i])); });
}

template <typename T>
void ActBackwardT(const OpContext& ctx, ActKind k, const TensorView& gy, const TensorView& y, const TensorView* x,
                  OpReq req, const TensorView& gx) {
  const T* gp = gy.ptr<T>();
  const T* op = y.ptr<T>();
  const T* xp = x != nullptr ? x->ptr<T>() : nullptr;
  T* out = gx.ptr<T>();
  Launch(ctx, gx.Size(), [=] WEFT_HD(int64_t i) {
    const AccT<T> v = xp != nullptr ? static_cast<AccT<T>>(xp[i]) : AccT<T>(0);
    Assign(out, i, req, ActGrad<AccT<T>>(k, gp[i], op[i], v));
  });
}

void Activation(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "Activation", T, { ActForwardT<T>(ctx, ActKindOf(p), in[0], req[0], out[0]); })
}

void ActivationBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const ActKind k = ActKindOf(p);
  const bool needs_data = k == ActKind::kSoftSign || k == ActKind::kMish;
  WEFT_CHECK(!needs_data || in.size() > 2, kInvalidArgument)
      << "_backward_Activation: act_type '" << p.GetString("act_type") << "' needs the input 'data'";
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_Activation", T, {
    ActBackwardT<T>(ctx, k, in[0], in[1], needs_data ? &in[2] : nullptr, req[0], out[0]);
  })
}

// ---- LeakyReLU ----

template <typename T>
WEFT_HD inline T LeakyValue(LeakyKind k, T slope, T v) {
  switch (k) {
    case LeakyKind::kELU: return v > T(0) ? v : slope * std::expm1(v);
    case LeakyKind::kSELU: return T(kSeluLambda) * (v > T(0) ? v : T(kSeluAlpha) * std::expm1(v));
    case LeakyKind::kGELU: return T(0.5) * v * (T(1) + std::erf(v * T(kSqrtHalf)));
    default: return v > T(0) ? v : slope * v;  // leaky; prelu and rrelu pass their slope
  }
}

template <typename T>
WEFT_HD inline T LeakyGrad(LeakyKind k, T slope, T g, T v) {
  switch (k) {
    case LeakyKind::kELU: return v > T(0) ? g : g * slope * std::exp(v);
    case LeakyKind::kSELU: return g * T(kSeluLambda) * (v > T(0) ? T(1) : T(kSeluAlpha) * std::exp(v));
    case LeakyKind::kGELU: {
      const T cdf = T(0.5) * (T(1) + std::erf(v * T(kSqrtHalf)));
      const T pdf = std::exp(T(-0.5) * v * v) * T(kInvSqrt2Pi);
      return g * (cdf + v * pdf);
    }
    default: return v > T(0) ? g : g * slope;  // leaky, prelu, rrelu
  }
}

template <typename T>
void LeakyForwardT(const OpContext& ctx, LeakyKind k, double slope_d, const TensorView& x, const TensorView* gamma,
                   OpReq req, const TensorView& y) {
  const T* xp = x.ptr<T>();
  T* yp = y.ptr<T>();
  const T slope = static_cast<T>(slope_d);
  const T* gp = gamma != nullptr ? gamma->ptr<T>() : nullptr;
  const GammaIndex gi = gamma != nullptr ? MakeGammaIndex(x, *gamma) : GammaIndex();
  Launch(ctx, y.Size(), [=] WEFT_HD(int64_t i) {
    const AccT<T> s = gp != nullptr ? static_cast<AccT<T>>(gp[gi(i)]) : static_cast<AccT<T>>(slope);
    Assign(yp, i, req, LeakyValue<AccT<T>>(k, s, xp[i]));
  });
}

// rrelu: slope per element uniform in [lower, upper) when training (seeded),
// else their mean; the mask holds the slope as stored in T.
template <typename T>
void RReLUForwardT(const OpContext& ctx, bool draw, uint64_t seed, double lower, double upper, const TensorView& x,
                   OpReq req, const TensorView& y, OpReq req_mask, const TensorView& mask) {
  const T* xp = x.ptr<T>();
  T* yp = y.ptr<T>();
  T* mp = mask.ptr<T>();
  Launch(ctx, x.Size(), [=] WEFT_HD(int64_t i) {
    double s = (lower + upper) / 2;
    if (draw) s = lower + (upper - lower) * Uniform53(seed, static_cast<uint64_t>(i));
    const T slope = static_cast<T>(s);
    const AccT<T> v = static_cast<AccT<T>>(xp[i]);
    if (req_mask != OpReq::kNull) Assign(mp, i, req_mask, slope);
    if (req != OpReq::kNull) Assign(yp, i, req, v > AccT<T>(0) ? v : v * static_cast<AccT<T>>(slope));
  });
}

void LeakyReLU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const LeakyKind k = LeakyKindOf(p);
  if (k == LeakyKind::kRReLU) {
    const bool draw = ctx.is_train && ctx.rng != nullptr;
    const uint64_t seed = draw ? DrawSeed(ctx, "LeakyReLU") : 0;
    WEFT_GPU_REAL_SWITCH(in[0].dtype, "LeakyReLU", T, {
      RReLUForwardT<T>(ctx, draw, seed, p.GetFloat("lower_bound"), p.GetFloat("upper_bound"), in[0], req[0], out[0],
                       req[1], out[1]);
    })
    return;
  }
  if (req[0] == OpReq::kNull) return;
  const TensorView* gamma = k == LeakyKind::kPReLU ? &in[1] : nullptr;
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "LeakyReLU", T, {
    LeakyForwardT<T>(ctx, k, p.GetFloat("slope"), in[0], gamma, req[0], out[0]);
  })
}

template <typename T>
void LeakyBackwardT(const OpContext& ctx, LeakyKind k, double slope_d, const TensorView& gy, const TensorView& x,
                    const TensorView* gamma, const TensorView* mask, OpReq req_x, const TensorView& gx,
                    OpReq req_gamma, const TensorView* ggamma) {
  const T* gp = gy.ptr<T>();
  const T* xp = x.ptr<T>();
  const T slope = static_cast<T>(slope_d);
  // gamma's gradient first: gx may share memory with gy (in place). One index
  // per slope sums, in element order and in double like the CPU, the
  // elements that use it.
  if (gamma != nullptr && req_gamma != OpReq::kNull && ggamma != nullptr) {
    const GammaIndex gi = MakeGammaIndex(x, *gamma);
    const int64_t n = x.Size();
    T* op = ggamma->ptr<T>();
    Launch(ctx, ggamma->Size(), [=] WEFT_HD(int64_t c) {
      double acc = 0;
      auto add = [&](int64_t i) {
        const double v = static_cast<double>(xp[i]);
        if (!(v > 0)) acc += static_cast<double>(gp[i]) * v;
      };
      if (gi.mode == 0) {
        for (int64_t i = 0; i < n; ++i) add(i);
      } else if (gi.mode == 2) {
        add(c);
      } else {
        const int64_t block = gi.channels * gi.inner;
        for (int64_t o = 0; o * block < n; ++o)
          for (int64_t j = 0; j < gi.inner; ++j) add(o * block + c * gi.inner + j);
      }
      Assign(op, c, req_gamma, static_cast<T>(acc));
    });
  }
  if (req_x == OpReq::kNull) return;
  const T* wp = gamma != nullptr ? gamma->ptr<T>() : mask != nullptr ? mask->ptr<T>() : nullptr;
  const GammaIndex gi = gamma != nullptr ? MakeGammaIndex(x, *gamma) : GammaIndex{2, 1, 1};
  T* out = gx.ptr<T>();
  Launch(ctx, gx.Size(), [=] WEFT_HD(int64_t i) {
    const AccT<T> s = wp != nullptr ? static_cast<AccT<T>>(wp[gi(i)]) : static_cast<AccT<T>>(slope);
    Assign(out, i, req_x, LeakyGrad<AccT<T>>(k, s, gp[i], xp[i]));
  });
}

void LeakyReLUBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const LeakyKind k = LeakyKindOf(p);
  const TensorView* extra = in.size() > 2 ? &in[2] : nullptr;
  WEFT_CHECK(extra != nullptr || (k != LeakyKind::kPReLU && k != LeakyKind::kRReLU), kInvalidArgument)
      << "_backward_LeakyReLU: act_type '" << p.GetString("act_type") << "' needs a third input ("
      << (k == LeakyKind::kPReLU ? "gamma" : "mask") << ")";
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_LeakyReLU", T, {
    LeakyBackwardT<T>(ctx, k, p.GetFloat("slope"), in[0], in[1], k == LeakyKind::kPReLU ? extra : nullptr,
                      k == LeakyKind::kRReLU ? extra : nullptr, req[0], out[0],
                      out.size() > 1 ? req[1] : OpReq::kNull, out.size() > 1 ? &out[1] : nullptr);
  })
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ActivationGpu, Activation)  // Activation
WEFT_GPU_KERNEL_EXPORT(BackwardActivationGpu, ActivationBackward)  // _backward_Activation
WEFT_GPU_KERNEL_EXPORT(LeakyReLUGpu, LeakyReLU)  // LeakyReLU
WEFT_GPU_KERNEL_EXPORT(BackwardLeakyReLUGpu, LeakyReLUBackward)  // _backward_LeakyReLU

}  // namespace cuda
}  // namespace weft
