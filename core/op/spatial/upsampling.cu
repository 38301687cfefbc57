// GPU kernels of nearest UpSampling (core/op/spatial/upsampling.cc) and its backward
// ops (_backward_UpSampling_multi in upsampling_backward.cc); the rules follow
// core/op/spatial/upsampling_cpu.cc.
#include <cstdint>
#include <string>
#include <vector>

#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

// ---- UpSampling (nearest) ----

// One input (N, C, H, W) repeated s x s into channels [c_off, c_off + C) of
// out (N, OC, OH, OW).
template <typename T>
void UpNearestT(const OpContext& ctx, const T* in, int64_t n, int64_t c, int64_t h, int64_t w, int64_t c_off,
                int64_t oc, int64_t oh, int64_t ow, OpReq req, T* out) {
  const int64_t s = oh / h;
  Launch(ctx, n * c * oh * ow, [=] WEFT_HD(int64_t e) {
    const int64_t x = e % ow, y = (e / ow) % oh, r = e / (ow * oh);  // r = ni * c + ci
    const int64_t ni = r / c, ci = r % c;
    Assign(out, (ni * oc + c_off + ci) * oh * ow + y * ow + x, req, in[r * h * w + (y / s) * w + x / s]);
  });
}

void UpSampling(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const bool sum = p.GetString("multi_input_mode") == "sum";
  const Shape& o = out[0].shape;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "UpSampling", T, {
    int64_t c_off = 0;
    for (size_t k = 0; k < in.size(); ++k) {
      const Shape& s = in[k].shape;
      // sum: the first input is written under req, the others added (as on the CPU).
      const OpReq r = (sum && k > 0) ? OpReq::kAddTo : req[0];
      UpNearestT<T>(ctx, in[k].ptr<T>(), s[0], s[1], s[2], s[3], sum ? 0 : c_off, o[1], o[2], o[3], r,
                    out[0].ptr<T>());
      c_off += s[1];
    }
  });
}

// gin (N, C, H, W) (req)= the s x s block sums (float64) of channels
// [c_off, c_off + C) of gout (N, OC, OH, OW).
template <typename T>
void UpNearestGradT(const OpContext& ctx, const T* gout, int64_t oc, int64_t oh, int64_t ow, int64_t c_off,
                    int64_t n, int64_t c, int64_t h, int64_t w, OpReq req, T* gin) {
  const int64_t s = oh / h;
  Launch(ctx, n * c * h * w, [=] WEFT_HD(int64_t e) {
    const int64_t x = e % w, y = (e / w) % h, r = e / (w * h);
    const T* src = gout + ((r / c) * oc + c_off + r % c) * oh * ow;
    double acc = 0;
    for (int64_t dy = 0; dy < s; ++dy)
      for (int64_t dx = 0; dx < s; ++dx) acc += static_cast<double>(src[(y * s + dy) * ow + x * s + dx]);
    Assign(gin, e, req, static_cast<T>(acc));
  });
}

void UpSamplingBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool sum = p.GetString("multi_input_mode") == "sum";
  const Shape& g = in[0].shape;
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_UpSampling", T, {
    int64_t c_off = 0;
    for (size_t k = 0; k < out.size(); ++k) {
      const Shape& s = out[k].shape;
      if (req[k] != OpReq::kNull && out[k].Size() > 0)
        UpNearestGradT<T>(ctx, in[0].ptr<T>(), g[1], g[2], g[3], sum ? 0 : c_off, s[0], s[1], s[2], s[3], req[k],
                          out[k].ptr<T>());
      c_off += s[1];
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(UpSamplingGpu, UpSampling)  // UpSampling
WEFT_GPU_KERNEL_EXPORT(BackwardUpSamplingGpu, UpSamplingBackward)  // _backward_UpSampling
WEFT_GPU_KERNEL_EXPORT(BackwardUpSamplingMultiGpu, UpSamplingBackward)  // _backward_UpSampling_multi

}  // namespace cuda
}  // namespace weft
