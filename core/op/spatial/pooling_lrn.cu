// GPU kernels of Pooling and LRN and their backward ops (core/op/spatial/pooling.cc,
// lrn.cc), with the window rules of core/op/spatial/pooling_cpu.cc and the formulas
// of core/op/spatial/lrn_cpu.cc. One index per output element everywhere: the
// pooling gradients gather, per input element, over the windows that hold it.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/op/spatial/lrn_cpu.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/pooling_rules.h"

namespace weft {
namespace cuda {
namespace {

using nn_cpu::PoolGeom;
using nn_cpu::PoolType;

// ---- Pooling ----

// Window o of axis a: [lo, hi) inside the input and its divisor factor
// (core/op/spatial/pooling_cpu.cc Span).
struct Span {
  int64_t lo, hi, count;
};

WEFT_HD inline Span WindowOf(const PoolGeom& g, int a, int64_t o) {
  const int64_t s = o * g.stride[a] - g.pad[a], e = s + g.kernel[a];
  Span sp;
  sp.lo = s > 0 ? s : 0;
  sp.hi = e < g.in[a] ? e : g.in[a];
  const int64_t padded_end = e < g.in[a] + g.pad[a] ? e : g.in[a] + g.pad[a];
  sp.count = g.count_include_pad ? padded_end - s : sp.hi - sp.lo;
  return sp;
}

template <typename T>
WEFT_HD inline T PowP(T v, int p) {
  return p == 1 ? v : p == 2 ? v * v : v * v * v;
}

// Windows of axis a that hold input position i: [*first, *last].
WEFT_HD inline void WindowsHolding(const PoolGeom& g, int a, int64_t i, int64_t* first, int64_t* last) {
  const int64_t num = i + g.pad[a] - g.kernel[a] + 1;  // window o holds i iff o*stride >= num
  *first = num <= 0 ? 0 : (num + g.stride[a] - 1) / g.stride[a];
  const int64_t hi = (i + g.pad[a]) / g.stride[a];
  *last = hi < g.out[a] - 1 ? hi : g.out[a] - 1;
}

template <typename T>
void PoolForwardT(const OpContext& ctx, const PoolGeom& g, const T* x, OpReq req, T* y) {
  const int64_t in_vol = g.InSize(), out_vol = g.OutSize();
  const PoolGeom G = g;
  Launch(ctx, g.batch * g.channels * out_vol, [=] WEFT_HD(int64_t idx) {
    const int64_t o = idx % out_vol, plane = idx / out_vol;
    const int64_t ow = o % G.out[2], oh = (o / G.out[2]) % G.out[1], od = o / (G.out[1] * G.out[2]);
    const Span d = WindowOf(G, 0, od), h = WindowOf(G, 1, oh), w = WindowOf(G, 2, ow);
    const T* xp = x + plane * in_vol;
    const bool is_max = G.type == PoolType::kMax;
    // The CPU's loop: window in row-major order; max starts at lowest() and
    // keeps the old value unless the new one is greater (NaN never wins).
    using A = AccT<T>;  // the 16-bit types accumulate in float
    A acc = is_max ? std::numeric_limits<A>::lowest() : A(0);
    for (int64_t id = d.lo; id < d.hi; ++id)
      for (int64_t ih = h.lo; ih < h.hi; ++ih) {
        const T* row = xp + (id * G.in[1] + ih) * G.in[2];
        for (int64_t iw = w.lo; iw < w.hi; ++iw) {
          const A v = static_cast<A>(row[iw]);
          if (is_max) acc = v > acc ? v : acc;
          else if (G.type == PoolType::kLp) acc += PowP(v, G.p_value);
          else acc += v;
        }
      }
    A r = acc;
    if (G.type == PoolType::kAvg) {
      const int64_t size = d.count * h.count * w.count;
      r = size > 0 ? acc / static_cast<A>(size) : std::numeric_limits<A>::quiet_NaN();
    } else if (G.type == PoolType::kLp) {
      r = G.p_value == 1 ? acc : G.p_value == 2 ? std::sqrt(acc) : std::cbrt(acc);
    }
    Assign(y, idx, req, r);
  });
}

// Max pooling's gradient target per output: the first input of its window in
// row-major order equal to the output (MXNet's rule, Note [Pooling loop
// order] in core/op/spatial/pooling_cpu.cc), as an index into the plane, or -1.
template <typename T>
void MaxTargets(const OpContext& ctx, const PoolGeom& g, const T* x, const T* y, int64_t* first) {
  const int64_t in_vol = g.InSize(), out_vol = g.OutSize();
  const PoolGeom G = g;
  Launch(ctx, g.batch * g.channels * out_vol, [=] WEFT_HD(int64_t idx) {
    const int64_t o = idx % out_vol, plane = idx / out_vol;
    const int64_t ow = o % G.out[2], oh = (o / G.out[2]) % G.out[1], od = o / (G.out[1] * G.out[2]);
    const Span d = WindowOf(G, 0, od), h = WindowOf(G, 1, oh), w = WindowOf(G, 2, ow);
    const T* xp = x + plane * in_vol;
    const T out = y[idx];
    int64_t found = -1;
    for (int64_t id = d.lo; id < d.hi && found < 0; ++id)
      for (int64_t ih = h.lo; ih < h.hi && found < 0; ++ih)
        for (int64_t iw = w.lo; iw < w.hi; ++iw)
          if (xp[(id * G.in[1] + ih) * G.in[2] + iw] == out) {
            found = (id * G.in[1] + ih) * G.in[2] + iw;
            break;
          }
    first[idx] = found;
  });
}

// dx (req)= gradient, one index per input element gathering over the windows
// that hold it (no atomics); max pooling reads the targets of MaxTargets.
template <typename T>
void PoolBackwardT(const OpContext& ctx, const PoolGeom& g, const T* dy, const T* x, const T* y, OpReq req, T* dx) {
  const int64_t in_vol = g.InSize(), out_vol = g.OutSize();
  int64_t* first = nullptr;
  if (g.type == PoolType::kMax) {
    first = static_cast<int64_t*>(Scratch(ctx, sizeof(int64_t) * static_cast<size_t>(g.batch * g.channels * out_vol)));
    MaxTargets(ctx, g, x, y, first);
  }
  const PoolGeom G = g;
  Launch(ctx, g.batch * g.channels * in_vol, [=] WEFT_HD(int64_t idx) {
    const int64_t s = idx % in_vol, plane = idx / in_vol;
    const int64_t iw = s % G.in[2], ih = (s / G.in[2]) % G.in[1], id = s / (G.in[1] * G.in[2]);
    const T* yp = y + plane * out_vol;
    const T* gp = dy + plane * out_vol;
    int64_t d0, d1, h0, h1, w0, w1;
    WindowsHolding(G, 0, id, &d0, &d1);
    WindowsHolding(G, 1, ih, &h0, &h1);
    WindowsHolding(G, 2, iw, &w0, &w1);
    using A = AccT<T>;
    A acc = A(0);
    for (int64_t od = d0; od <= d1; ++od) {
      const Span d = WindowOf(G, 0, od);
      for (int64_t oh = h0; oh <= h1; ++oh) {
        const Span h = WindowOf(G, 1, oh);
        for (int64_t ow = w0; ow <= w1; ++ow) {
          const Span w = WindowOf(G, 2, ow);
          const int64_t o = (od * G.out[1] + oh) * G.out[2] + ow;
          const A grad = static_cast<A>(gp[o]), out = static_cast<A>(yp[o]);
          if (G.type == PoolType::kMax) {
            if (first[plane * out_vol + o] == s) acc += grad;
          } else if (G.type == PoolType::kLp) {
            const A xv = static_cast<A>(x[idx]);
            acc += grad * (G.p_value == 1 ? A(1) : out == A(0) ? A(0) : PowP(xv / out, G.p_value - 1));
          } else {
            const int64_t size = G.type == PoolType::kAvg ? d.count * h.count * w.count : 1;
            acc += size > 0 ? grad / static_cast<A>(size) : A(0);
          }
        }
      }
    }
    Assign(dx, idx, req, acc);
  });
}

void Pooling(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  if (req[0] != OpReq::kNull) {
    const PoolGeom g = nn::PoolGeometry(p, in[0].shape);
    WEFT_GPU_REAL_SWITCH(in[0].dtype, "Pooling", T,
                         { PoolForwardT<T>(ctx, g, in[0].ptr<T>(), req[0], out[0].ptr<T>()); });
  }
  // The hidden workspace output (Note [Pooling workspace output]): zeros.
  if (out.size() > 1 && (req[1] == OpReq::kWriteTo || req[1] == OpReq::kWriteInplace))
    gpu::MemsetAsync(out[1].data, 0, static_cast<size_t>(out[1].Size()) * DTypeSize(out[1].dtype), StreamOf(ctx));
}

void PoolingBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const PoolGeom g = nn::PoolGeometry(p, in[1].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_Pooling", T, {
    PoolBackwardT<T>(ctx, g, in[0].ptr<T>(), in[1].ptr<T>(), in[2].ptr<T>(), req[0], out[0].ptr<T>());
  });
}

// ---- LRN ----

// nnx_cpu::LRNArgs: data as (batch, C, inner); the window of channel c is
// [c - nsize/2, c + nsize/2] clipped to [0, C).
using nnx_cpu::LRNArgs;

// The window sum over channels of v at element i (channel (i / inner) % C), in AccT.
template <typename T>
WEFT_HD inline AccT<T> ChannelWindowSum(const T* v, int64_t i, int64_t C, int64_t inner, int64_t half, bool square) {
  const int64_t c = (i / inner) % C;
  const int64_t lo = c - half > 0 ? c - half : 0, hi = c + half < C - 1 ? c + half : C - 1;
  const T* base = v + (i - c * inner);
  AccT<T> acc = AccT<T>(0);
  for (int64_t w = lo; w <= hi; ++w) {
    const AccT<T> x = static_cast<AccT<T>>(base[w * inner]);
    acc += square ? x * x : x;
  }
  return acc;
}

// Every norm first (into scratch), then the outputs: y may be x's memory.
template <typename T>
void LRNForwardT(const OpContext& ctx, const LRNArgs& a, int64_t n, const T* x, OpReq req_y, T* y, OpReq req_norm,
                 T* norm) {
  using A = AccT<T>;
  A* nbuf = static_cast<A*>(Scratch(ctx, sizeof(A) * static_cast<size_t>(n)));
  const A salpha = static_cast<A>(a.alpha / a.nsize), knorm = static_cast<A>(a.knorm), neg_beta = static_cast<A>(-a.beta);
  const int64_t C = a.channels, inner = a.inner, half = a.nsize / 2;
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { nbuf[i] = knorm + salpha * ChannelWindowSum(x, i, C, inner, half, true); });
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    const A nv = nbuf[i];
    const A v = static_cast<A>(x[i]) * std::pow(nv, neg_beta);
    if (req_norm != OpReq::kNull) Assign(norm, i, req_norm, nv);
    if (req_y != OpReq::kNull) Assign(y, i, req_y, v);
  });
}

// gx (req)= gy * norm^-beta - 2 alpha beta / nsize * x * window sum of
// gy * x * norm^(-beta-1); the products go to scratch first, so gx may be gy.
template <typename T>
void LRNBackwardT(const OpContext& ctx, const LRNArgs& a, int64_t n, const T* gy, const T* x, const T* norm,
                  OpReq req, T* gx) {
  using A = AccT<T>;
  A* scaled = static_cast<A*>(Scratch(ctx, sizeof(A) * static_cast<size_t>(n)));
  const A neg_beta = static_cast<A>(-a.beta), coef = static_cast<A>(2.0 * a.alpha * a.beta / a.nsize);
  const int64_t C = a.channels, inner = a.inner, half = a.nsize / 2;
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    const A nv = static_cast<A>(norm[i]);
    scaled[i] = static_cast<A>(gy[i]) * std::pow(nv, neg_beta) * static_cast<A>(x[i]) / nv;
  });
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    const A direct = static_cast<A>(gy[i]) * std::pow(static_cast<A>(norm[i]), neg_beta);
    Assign(gx, i, req, direct - coef * static_cast<A>(x[i]) * ChannelWindowSum(scaled, i, C, inner, half, false));
  });
}

void LRN(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  if ((req[0] == OpReq::kNull && req[1] == OpReq::kNull) || in[0].Size() == 0) return;
  const LRNArgs a = nnx_cpu::LRNArgsOf(p, in[0].shape, "data");
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "LRN", T, {
    LRNForwardT<T>(ctx, a, in[0].Size(), in[0].ptr<T>(), req[0], out[0].ptr<T>(), req[1], out[1].ptr<T>());
  });
}

void LRNBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const LRNArgs a = nnx_cpu::LRNArgsOf(p, in[1].shape, "data");
  WEFT_GPU_REAL_SWITCH(in[1].dtype, "_backward_LRN", T, {
    LRNBackwardT<T>(ctx, a, out[0].Size(), in[0].ptr<T>(), in[1].ptr<T>(), in[2].ptr<T>(), req[0], out[0].ptr<T>());
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(PoolingGpu, Pooling)  // Pooling
WEFT_GPU_KERNEL_EXPORT(BackwardPoolingGpu, PoolingBackward)  // _backward_Pooling
WEFT_GPU_KERNEL_EXPORT(LRNGpu, LRN)  // LRN
WEFT_GPU_KERNEL_EXPORT(BackwardLRNGpu, LRNBackward)  // _backward_LRN

}  // namespace cuda
}  // namespace weft
