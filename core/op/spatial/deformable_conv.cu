// GPU kernels of the deformable convolutions and their backward ops: per
// image, the deformable im2col of deformable_conv_rules.h and one gpu::Gemm
// per group, as on the CPU (deformable_conv_cpu.cc).
#include <string>
#include <vector>

#include "core/op/common/tensor_util.cuh"
#include "core/op/spatial/deformable_conv_rules.h"

namespace weft {
namespace cuda {
namespace {

bool Modulated(const Params& p) { return p.op()->name.find("Modulated") != std::string::npos; }

template <typename T>
void GemmG(const OpContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
           const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  gpu::Gemm(DeviceOf(ctx), StreamOf(ctx), ta, tb, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), T(1),
            a, static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

void Deform(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const bool mod = Modulated(p);
  const spatial::DeformGeom g = spatial::DeformGeometry(p, p.op()->name, in[0].shape, mod);
  const spatial::DeformSlots s = spatial::DeformSlotsOf(mod);
  const bool has_bias = !p.GetBool("no_bias");
  WEFT_GPU_REAL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, {
    const int64_t P = g.P(), K = g.K(), kg = K / g.groups, fg = g.f / g.groups;
    const std::vector<void*> buf = ScratchPieces(ctx, {sizeof(T) * static_cast<size_t>(K * P),
                                                       sizeof(T) * static_cast<size_t>(g.f * P)});
    T* col = static_cast<T*>(buf[0]);
    T* tmp = static_cast<T*>(buf[1]);
    const T* w = in[s.weight].ptr<T>();
    const T* b = has_bias ? in[s.bias].ptr<T>() : nullptr;
    const int64_t off_n = 2 * g.dgroups * g.kh * g.kw * P, mask_n = g.dgroups * g.kh * g.kw * P;
    const OpReq r = req[0];
    for (int64_t n = 0; n < g.batch; ++n) {
      const T* x = in[0].ptr<T>() + n * g.c * g.h * g.w;
      const T* off = in[1].ptr<T>() + n * off_n;
      const T* mk = mod ? in[s.mask].ptr<T>() + n * mask_n : nullptr;
      Launch(ctx, K * P, [=] WEFT_HD(int64_t e) { spatial::DcnIm2ColAt<T, AccT<T>>(g, x, off, mk, col, e); });
      for (int64_t gr = 0; gr < g.groups; ++gr)
        GemmG<T>(ctx, false, false, fg, P, kg, w + gr * fg * kg, kg, col + gr * kg * P, P, T(0), tmp + gr * fg * P, P);
      T* y = out[0].ptr<T>() + n * g.f * P;
      Launch(ctx, g.f * P, [=] WEFT_HD(int64_t e) { spatial::DcnBiasStoreAt<T, AccT<T>>(g, tmp, b, r, y, e); });
    }
  });
}

void DeformBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool mod = Modulated(p);
  const spatial::DeformGeom g = spatial::DeformGeometry(p, p.op()->name, in[1].shape, mod);
  const spatial::DeformSlots s = spatial::DeformSlotsOf(mod);
  const bool has_bias = !p.GetBool("no_bias");
  const TensorView& gy = in[0];
  WEFT_GPU_REAL_SWITCH(gy.dtype, p.op()->name.c_str(), T, {
    const int64_t P = g.P(), K = g.K(), kg = K / g.groups, fg = g.f / g.groups;
    const std::vector<void*> buf = ScratchPieces(ctx, {sizeof(T) * static_cast<size_t>(K * P),
                                                       sizeof(T) * static_cast<size_t>(K * P)});
    T* col = static_cast<T*>(buf[0]);
    T* dcol = static_cast<T*>(buf[1]);
    const T* w = in[static_cast<size_t>(s.weight) + 1].ptr<T>();
    const int64_t off_n = 2 * g.dgroups * g.kh * g.kw * P, mask_n = g.dgroups * g.kh * g.kw * P;
    const OpReq rx = req[0], ro = req[1], rm = mod ? req[2] : OpReq::kNull, rw = req[static_cast<size_t>(s.weight)];
    for (int64_t n = 0; n < g.batch; ++n) {
      const T* x = in[1].ptr<T>() + n * g.c * g.h * g.w;
      const T* off = in[2].ptr<T>() + n * off_n;
      const T* mk = mod ? in[3].ptr<T>() + n * mask_n : nullptr;
      const T* dy = gy.ptr<T>() + n * g.f * P;
      for (int64_t gr = 0; gr < g.groups; ++gr)
        GemmG<T>(ctx, true, false, kg, P, fg, w + gr * fg * kg, kg, dy + gr * fg * P, P, T(0), dcol + gr * kg * P, P);
      if (rx != OpReq::kNull) {
        T* gx = out[0].ptr<T>() + n * g.c * g.h * g.w;
        Launch(ctx, g.c, [=] WEFT_HD(int64_t c) { spatial::DcnCol2ImPlane<T, AccT<T>>(g, dcol, off, mk, rx, gx, c); });
      }
      if (ro != OpReq::kNull) {
        T* go = out[1].ptr<T>() + n * off_n;
        Launch(ctx, off_n, [=] WEFT_HD(int64_t e) { spatial::DcnOffsetGradAt<T, AccT<T>>(g, dcol, x, off, mk, ro, go, e); });
      }
      if (rm != OpReq::kNull) {
        T* gm = out[2].ptr<T>() + n * mask_n;
        Launch(ctx, mask_n, [=] WEFT_HD(int64_t e) { spatial::DcnMaskGradAt<T, AccT<T>>(g, dcol, x, off, mk, rm, gm, e); });
      }
      if (rw != OpReq::kNull) {
        Launch(ctx, K * P, [=] WEFT_HD(int64_t e) { spatial::DcnIm2ColAt<T, AccT<T>>(g, x, off, mk, col, e); });
        const T beta = (n > 0 || rw == OpReq::kAddTo) ? T(1) : T(0);
        T* gw = out[static_cast<size_t>(s.weight)].ptr<T>();
        for (int64_t gr = 0; gr < g.groups; ++gr)
          GemmG<T>(ctx, false, true, fg, kg, P, dy + gr * fg * P, P, col + gr * kg * P, P, beta, gw + gr * fg * kg, kg);
      }
    }
    if (has_bias && req[static_cast<size_t>(s.bias)] != OpReq::kNull) {
      T* gb = out[static_cast<size_t>(s.bias)].ptr<T>();
      const T* dyp = gy.ptr<T>();
      const OpReq rb = req[static_cast<size_t>(s.bias)];
      Launch(ctx, g.f, [=] WEFT_HD(int64_t f) { spatial::DcnBiasGradAt<T, AccT<T>>(g, dyp, rb, gb, f); });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(DeformableConvGpu, Deform)                  // _contrib_(Modulated)DeformableConvolution
WEFT_GPU_KERNEL_EXPORT(DeformableConvBackwardGpu, DeformBackward)  // their backward ops

}  // namespace cuda
}  // namespace weft
