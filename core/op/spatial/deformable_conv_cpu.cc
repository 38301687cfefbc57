// CPU kernels of the deformable convolutions and their backward ops: per
// image, the deformable im2col (deformable_conv_rules.h) and one nn_cpu::Gemm
// per group (core/op/dense/gemm_cpu.cc); float32 and float64.
#include <string>

#include "core/base/error.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/deformable_conv_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {
namespace {

bool Modulated(const Params& p) { return p.op()->name.find("Modulated") != std::string::npos; }

template <typename F>
void Each(int64_t n, int64_t cost, F f) {
  ParallelFor(n, cost, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) f(i);
  });
}

#define WEFT_DEFORM_SWITCH(dt, op, T, ...)                                       \
  switch (dt) {                                                                  \
    case DType::kFloat32: { using T = float; __VA_ARGS__ break; }                \
    case DType::kFloat64: { using T = double; __VA_ARGS__ break; }               \
    default:                                                                     \
      WEFT_THROW(kDType) << (op) << ": dtype " << DTypeName(dt)                  \
                         << " is not supported (float32 or float64 expected)";   \
  }

template <typename T>
void Im2Col(const spatial::DeformGeom& g, const T* data, const T* offset, const T* mask, T* col) {
  Each(g.K() * g.P(), 8 * g.kh * g.kw,
       [&](int64_t e) { spatial::DcnIm2ColAt<T, T>(g, data, offset, mask, col, e); });
}

}  // namespace

void DeformableConv(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const bool mod = Modulated(p);
  const spatial::DeformGeom g = spatial::DeformGeometry(p, p.op()->name, in[0].shape, mod);
  const spatial::DeformSlots s = spatial::DeformSlotsOf(mod);
  const bool bias = !p.GetBool("no_bias");
  WEFT_DEFORM_SWITCH(out[0].dtype, p.op()->name, T, {
    const int64_t P = g.P(), K = g.K(), kg = K / g.groups, fg = g.f / g.groups;
    T* col = static_cast<T*>(nn_cpu::ThreadScratch(0, sizeof(T) * static_cast<size_t>(K * P)));
    T* tmp = static_cast<T*>(nn_cpu::ThreadScratch(1, sizeof(T) * static_cast<size_t>(g.f * P)));
    const T* w = in[s.weight].ptr<T>();
    const T* b = bias ? in[s.bias].ptr<T>() : nullptr;
    const int64_t off_n = 2 * g.dgroups * g.kh * g.kw * P, mask_n = g.dgroups * g.kh * g.kw * P;
    for (int64_t n = 0; n < g.batch; ++n) {
      const T* mk = mod ? in[s.mask].ptr<T>() + n * mask_n : nullptr;
      Im2Col<T>(g, in[0].ptr<T>() + n * g.c * g.h * g.w, in[1].ptr<T>() + n * off_n, mk, col);
      for (int64_t gr = 0; gr < g.groups; ++gr)
        nn_cpu::Gemm(false, false, fg, P, kg, w + gr * fg * kg, kg, col + gr * kg * P, P, T(0), tmp + gr * fg * P, P);
      T* y = out[0].ptr<T>() + n * g.f * P;
      Each(g.f * P, 2, [&](int64_t e) { spatial::DcnBiasStoreAt<T, T>(g, tmp, b, req[0], y, e); });
    }
  })
}

void DeformableConvBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool mod = Modulated(p);
  const spatial::DeformGeom g = spatial::DeformGeometry(p, p.op()->name, in[1].shape, mod);
  const spatial::DeformSlots s = spatial::DeformSlotsOf(mod);
  const bool bias = !p.GetBool("no_bias");
  // Inputs are shifted by one (out_grad first); outputs follow the forward inputs.
  const TensorView& gy = in[0];
  const TensorView& wv = in[static_cast<size_t>(s.weight) + 1];
  WEFT_DEFORM_SWITCH(gy.dtype, p.op()->name, T, {
    const int64_t P = g.P(), K = g.K(), kg = K / g.groups, fg = g.f / g.groups;
    T* col = static_cast<T*>(nn_cpu::ThreadScratch(0, sizeof(T) * static_cast<size_t>(K * P)));
    T* dcol = static_cast<T*>(nn_cpu::ThreadScratch(1, sizeof(T) * static_cast<size_t>(K * P)));
    const T* w = wv.ptr<T>();
    const int64_t off_n = 2 * g.dgroups * g.kh * g.kw * P, mask_n = g.dgroups * g.kh * g.kw * P;
    const OpReq rw = req[static_cast<size_t>(s.weight)];
    for (int64_t n = 0; n < g.batch; ++n) {
      const T* x = in[1].ptr<T>() + n * g.c * g.h * g.w;
      const T* off = in[2].ptr<T>() + n * off_n;
      const T* mk = mod ? in[3].ptr<T>() + n * mask_n : nullptr;
      const T* dy = gy.ptr<T>() + n * g.f * P;
      for (int64_t gr = 0; gr < g.groups; ++gr)
        nn_cpu::Gemm(true, false, kg, P, fg, w + gr * fg * kg, kg, dy + gr * fg * P, P, T(0), dcol + gr * kg * P, P);
      if (req[0] != OpReq::kNull) {
        T* gx = out[0].ptr<T>() + n * g.c * g.h * g.w;
        Each(g.c, 8 * g.kh * g.kw * P, [&](int64_t c) { spatial::DcnCol2ImPlane<T, T>(g, dcol, off, mk, req[0], gx, c); });
      }
      if (req[1] != OpReq::kNull) {
        T* go = out[1].ptr<T>() + n * off_n;
        Each(off_n, 8 * g.c / g.dgroups,
             [&](int64_t e) { spatial::DcnOffsetGradAt<T, T>(g, dcol, x, off, mk, req[1], go, e); });
      }
      if (mod && req[2] != OpReq::kNull) {
        T* gm = out[2].ptr<T>() + n * mask_n;
        Each(mask_n, 8 * g.c / g.dgroups,
             [&](int64_t e) { spatial::DcnMaskGradAt<T, T>(g, dcol, x, off, mk, req[2], gm, e); });
      }
      if (rw != OpReq::kNull) {
        Im2Col<T>(g, x, off, mk, col);
        const T beta = (n > 0 || rw == OpReq::kAddTo) ? T(1) : T(0);
        T* gw = out[static_cast<size_t>(s.weight)].ptr<T>();
        for (int64_t gr = 0; gr < g.groups; ++gr)
          nn_cpu::Gemm(false, true, fg, kg, P, dy + gr * fg * P, P, col + gr * kg * P, P, beta, gw + gr * fg * kg, kg);
      }
    }
    if (bias && req[static_cast<size_t>(s.bias)] != OpReq::kNull) {
      T* gb = out[static_cast<size_t>(s.bias)].ptr<T>();
      const OpReq rb = req[static_cast<size_t>(s.bias)];
      Each(g.f, g.batch * P, [&](int64_t f) { spatial::DcnBiasGradAt<T, T>(g, gy.ptr<T>(), rb, gb, f); });
    }
  })
}

#undef WEFT_DEFORM_SWITCH

}  // namespace spatial_cpu
}  // namespace weft
