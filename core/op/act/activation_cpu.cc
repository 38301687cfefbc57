// Activation and LeakyReLU kernels. Formulas follow MXNet 1.x mshadow_op
// (softrelu is linear above 20, gelu is the erf form); see Note [NN kernel
// arithmetic] for types.
#include "core/op/act/activation_cpu.h"

#include <algorithm>
#include <cmath>

#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename A>
A SoftRelu(A x) { return x > A(20) ? x : std::log1p(std::exp(x)); }

template <typename A>
A Sigmoid(A x) { return A(1) / (A(1) + std::exp(-x)); }

template <typename A>
A LogSigmoid(A x) {  // log(sigmoid(x)) without overflow on either side
  return x < A(0) ? x - std::log1p(std::exp(x)) : -std::log1p(std::exp(-x));
}

template <typename T>
void ActForwardT(ActKind kind, const TensorView& x, OpReq req, const TensorView& y) {
  using A = Acc<T>;
  switch (kind) {
    case ActKind::kReLU: Map1<T>(x, req, y, 1, [](A v) { return std::max(v, A(0)); }); break;
    case ActKind::kSigmoid: Map1<T>(x, req, y, 8, [](A v) { return Sigmoid(v); }); break;
    case ActKind::kLogSigmoid: Map1<T>(x, req, y, 12, [](A v) { return LogSigmoid(v); }); break;
    case ActKind::kMish: Map1<T>(x, req, y, 16, [](A v) { return v * std::tanh(SoftRelu(v)); }); break;
    case ActKind::kTanh: Map1<T>(x, req, y, 8, [](A v) { return std::tanh(v); }); break;
    case ActKind::kSoftReLU: Map1<T>(x, req, y, 12, [](A v) { return SoftRelu(v); }); break;
    case ActKind::kSoftSign: Map1<T>(x, req, y, 2, [](A v) { return v / (A(1) + std::fabs(v)); }); break;
  }
}

template <typename T>
void ActBackwardT(ActKind kind, const TensorView& gy, const TensorView& y, const TensorView* x, OpReq req,
                  const TensorView& gx) {
  using A = Acc<T>;
  switch (kind) {
    case ActKind::kReLU: Map2<T>(gy, y, req, gx, 1, [](A g, A o) { return o > A(0) ? g : A(0); }); break;
    case ActKind::kSigmoid: Map2<T>(gy, y, req, gx, 2, [](A g, A o) { return g * o * (A(1) - o); }); break;
    case ActKind::kLogSigmoid:
      Map2<T>(gy, y, req, gx, 8, [](A g, A o) { return g * (A(1) - std::exp(o)); });
      break;
    case ActKind::kTanh: Map2<T>(gy, y, req, gx, 2, [](A g, A o) { return g * (A(1) - o * o); }); break;
    case ActKind::kSoftReLU: Map2<T>(gy, y, req, gx, 8, [](A g, A o) { return g * -std::expm1(-o); }); break;
    case ActKind::kSoftSign:
      Map2<T>(gy, *x, req, gx, 2, [](A g, A v) {
        const A d = A(1) + std::fabs(v);
        return g / (d * d);
      });
      break;
    case ActKind::kMish:
      Map2<T>(gy, *x, req, gx, 24, [](A g, A v) {
        const A t = std::tanh(SoftRelu(v));
        return g * (t + v * (A(1) - t * t) * Sigmoid(v));
      });
      break;
  }
}

template <typename T>
void LeakyForwardT(LeakyKind kind, double slope_d, const TensorView& x, const TensorView* gamma, OpReq req,
                   const TensorView& y) {
  using A = Acc<T>;
  const A slope = static_cast<A>(slope_d);
  switch (kind) {
    case LeakyKind::kLeaky: Map1<T>(x, req, y, 1, [slope](A v) { return v > A(0) ? v : slope * v; }); break;
    case LeakyKind::kELU:
      Map1<T>(x, req, y, 8, [slope](A v) { return v > A(0) ? v : slope * std::expm1(v); });
      break;
    case LeakyKind::kSELU:
      Map1<T>(x, req, y, 8, [](A v) {
        return A(kSeluLambda) * (v > A(0) ? v : A(kSeluAlpha) * std::expm1(v));
      });
      break;
    case LeakyKind::kGELU:
      Map1<T>(x, req, y, 12, [](A v) { return A(0.5) * v * (A(1) + std::erf(v * A(M_SQRT1_2))); });
      break;
    case LeakyKind::kPReLU: {
      if (req == OpReq::kNull) return;
      const GammaIndex gi = MakeGammaIndex(x, *gamma);
      const T* xp = x.ptr<T>();
      const T* gp = gamma->ptr<T>();
      T* yp = y.ptr<T>();
      ParallelFor(y.Size(), 2, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          const A v = static_cast<A>(xp[i]);
          Store(req, yp + i, v > A(0) ? v : static_cast<A>(gp[gi(i)]) * v);
        }
      });
      break;
    }
    case LeakyKind::kRReLU: break;  // RReLUForward
  }
}

template <typename T>
void LeakyBackwardT(LeakyKind kind, double slope_d, const TensorView& gy, const TensorView& x,
                    const TensorView* gamma, const TensorView* mask, OpReq req_x, const TensorView& gx,
                    OpReq req_gamma, const TensorView* ggamma) {
  using A = Acc<T>;
  const A slope = static_cast<A>(slope_d);
  switch (kind) {
    case LeakyKind::kLeaky:
      Map2<T>(gy, x, req_x, gx, 1, [slope](A g, A v) { return v > A(0) ? g : g * slope; });
      break;
    case LeakyKind::kELU:
      Map2<T>(gy, x, req_x, gx, 8, [slope](A g, A v) { return v > A(0) ? g : g * slope * std::exp(v); });
      break;
    case LeakyKind::kSELU:
      Map2<T>(gy, x, req_x, gx, 8, [](A g, A v) {
        return g * A(kSeluLambda) * (v > A(0) ? A(1) : A(kSeluAlpha) * std::exp(v));
      });
      break;
    case LeakyKind::kGELU:
      Map2<T>(gy, x, req_x, gx, 16, [](A g, A v) {
        const A cdf = A(0.5) * (A(1) + std::erf(v * A(M_SQRT1_2)));
        const A pdf = std::exp(A(-0.5) * v * v) * A(kInvSqrt2Pi);
        return g * (cdf + v * pdf);
      });
      break;
    case LeakyKind::kRReLU: break;  // LeakyBackward reads the mask
    case LeakyKind::kPReLU: {
      const GammaIndex gi = MakeGammaIndex(x, *gamma);
      const T* gp = gy.ptr<T>();
      const T* xp = x.ptr<T>();
      const T* wp = gamma->ptr<T>();
      // gamma's gradient first: gx may share memory with gy (in place).
      if (req_gamma != OpReq::kNull && ggamma != nullptr) {
        std::vector<double> acc(static_cast<size_t>(gamma->Size()), 0.0);
        for (int64_t i = 0; i < x.Size(); ++i) {
          const double v = static_cast<double>(static_cast<A>(xp[i]));
          if (!(v > 0)) acc[static_cast<size_t>(gi(i))] += static_cast<double>(static_cast<A>(gp[i])) * v;
        }
        T* op = ggamma->ptr<T>();
        for (size_t k = 0; k < acc.size(); ++k) Store(req_gamma, op + k, static_cast<A>(acc[k]));
      }
      if (req_x != OpReq::kNull) {
        T* op = gx.ptr<T>();
        ParallelFor(gx.Size(), 2, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) {
            const A v = static_cast<A>(xp[i]);
            Store(req_x, op + i, v > A(0) ? static_cast<A>(gp[i]) : static_cast<A>(gp[i]) * static_cast<A>(wp[gi(i)]));
          }
        });
      }
      break;
    }
  }
}

}  // namespace

GammaIndex MakeGammaIndex(const TensorView& x, const TensorView& gamma) {
  GammaIndex g;
  if (gamma.Size() == 1 && x.Size() != 1) return g;
  if (gamma.shape == x.shape) {
    g.mode = 2;
    return g;
  }
  g.mode = 1;
  g.channels = x.shape[1];
  g.inner = x.shape.ProdRange(2, x.ndim());
  return g;
}

void ActivationForward(ActKind kind, const TensorView& x, OpReq req, const TensorView& y) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "Activation", T, { ActForwardT<T>(kind, x, req, y); })
}

void ActivationBackward(ActKind kind, const TensorView& gy, const TensorView& y, const TensorView* x, OpReq req,
                        const TensorView& gx) {
  WEFT_NNX_FLOAT_SWITCH(gy.dtype, "_backward_Activation", T, { ActBackwardT<T>(kind, gy, y, x, req, gx); })
}

void LeakyForward(LeakyKind kind, double slope, const TensorView& x, const TensorView* gamma, OpReq req,
                  const TensorView& y) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "LeakyReLU", T, { LeakyForwardT<T>(kind, slope, x, gamma, req, y); })
}

void RReLUForward(std::mt19937_64* gen, double lower, double upper, const TensorView& x, OpReq req,
                  const TensorView& y, OpReq req_mask, const TensorView& mask) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "LeakyReLU", T, {
    using A = Acc<T>;
    const T* xp = x.ptr<T>();
    T* yp = y.ptr<T>();
    T* mp = mask.ptr<T>();
    const int64_t n = x.Size();
    for (int64_t i = 0; i < n; ++i) {
      double s = (lower + upper) / 2;
      if (gen != nullptr) s = lower + (upper - lower) * (static_cast<double>((*gen)() >> 11) * 0x1.0p-53);
      const A slope = static_cast<A>(static_cast<T>(static_cast<A>(s)));  // as stored in the mask
      const A v = static_cast<A>(xp[i]);
      Store(req_mask, mp + i, slope);
      Store(req, yp + i, v > A(0) ? v : v * slope);
    }
  })
}

void LeakyBackward(LeakyKind kind, double slope, const TensorView& gy, const TensorView& x,
                   const TensorView* gamma, const TensorView* mask, OpReq req_x, const TensorView& gx,
                   OpReq req_gamma, const TensorView* ggamma) {
  WEFT_NNX_FLOAT_SWITCH(gy.dtype, "_backward_LeakyReLU", T, {
    if (kind == LeakyKind::kRReLU) {
      using A = Acc<T>;
      if (req_x == OpReq::kNull) return;
      const T* gp = gy.ptr<T>();
      const T* xp = x.ptr<T>();
      const T* mp = mask->ptr<T>();
      T* op = gx.ptr<T>();
      for (int64_t i = 0; i < gx.Size(); ++i) {
        const A g = static_cast<A>(gp[i]);
        Store(req_x, op + i, static_cast<A>(xp[i]) > A(0) ? g : g * static_cast<A>(mp[i]));
      }
    } else {
      LeakyBackwardT<T>(kind, slope, gy, x, gamma, mask, req_x, gx, req_gamma, ggamma);
    }
  })
}

ActKind ActKindOf(const Params& p) {
  const std::string& t = p.GetString("act_type");
  if (t == "relu") return ActKind::kReLU;
  if (t == "sigmoid") return ActKind::kSigmoid;
  if (t == "log_sigmoid") return ActKind::kLogSigmoid;
  if (t == "mish") return ActKind::kMish;
  if (t == "tanh") return ActKind::kTanh;
  if (t == "softrelu") return ActKind::kSoftReLU;
  return ActKind::kSoftSign;
}

LeakyKind LeakyKindOf(const Params& p) {
  const std::string& t = p.GetString("act_type");
  if (t == "leaky") return LeakyKind::kLeaky;
  if (t == "elu") return LeakyKind::kELU;
  if (t == "selu") return LeakyKind::kSELU;
  if (t == "gelu") return LeakyKind::kGELU;
  if (t == "prelu") return LeakyKind::kPReLU;
  return LeakyKind::kRReLU;
}

}  // namespace nnx_cpu
}  // namespace weft
