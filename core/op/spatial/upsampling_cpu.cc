#include "core/op/spatial/upsampling_cpu.h"

#include <algorithm>
#include <vector>

#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename T>
void UpNearestOne(const TensorView& in, int64_t c_off, OpReq req, const TensorView& out) {
  using A = Acc<T>;
  const int64_t n = in.shape[0], c = in.shape[1], h = in.shape[2], w = in.shape[3];
  const int64_t oc = out.shape[1], oh = out.shape[2], ow = out.shape[3];
  const int64_t s = oh / h;
  const T* ip = in.ptr<T>();
  T* op = out.ptr<T>();
  ParallelFor(n * c, oh * ow, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t ni = r / c, ci = r % c;
      const T* src = ip + r * h * w;
      T* dst = op + ((ni * oc) + c_off + ci) * oh * ow;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) Store(req, dst + y * ow + x, static_cast<A>(src[(y / s) * w + x / s]));
    }
  });
}

template <typename T>
void UpNearestGradOne(const TensorView& gout, int64_t c_off, OpReq req, const TensorView& gin) {
  using A = Acc<T>;
  const int64_t n = gin.shape[0], c = gin.shape[1], h = gin.shape[2], w = gin.shape[3];
  const int64_t oc = gout.shape[1], oh = gout.shape[2], ow = gout.shape[3];
  const int64_t s = oh / h;
  const T* gp = gout.ptr<T>();
  T* ip = gin.ptr<T>();
  ParallelFor(n * c, oh * ow, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t ni = r / c, ci = r % c;
      const T* src = gp + ((ni * oc) + c_off + ci) * oh * ow;
      T* dst = ip + r * h * w;
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
          double acc = 0;
          for (int64_t dy = 0; dy < s; ++dy)
            for (int64_t dx = 0; dx < s; ++dx)
              acc += static_cast<double>(static_cast<A>(src[(y * s + dy) * ow + x * s + dx]));
          Store(req, dst + y * w + x, static_cast<A>(acc));
        }
    }
  });
}

}  // namespace

void UpSamplingNearestForward(const std::vector<TensorView>& in, bool sum, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  WEFT_NNX_FLOAT_SWITCH(out.dtype, "UpSampling", T, {
    int64_t c_off = 0;
    for (size_t k = 0; k < in.size(); ++k) {
      const OpReq r = (sum && k > 0) ? OpReq::kAddTo : req;
      UpNearestOne<T>(in[k], sum ? 0 : c_off, r, out);
      c_off += in[k].shape[1];
    }
  })
}

void UpSamplingNearestBackward(const TensorView& gout, bool sum, const std::vector<OpReq>& req,
                               const std::vector<TensorView>& gin) {
  WEFT_NNX_FLOAT_SWITCH(gout.dtype, "_backward_UpSampling", T, {
    int64_t c_off = 0;
    for (size_t k = 0; k < gin.size(); ++k) {
      if (req[k] != OpReq::kNull && gin[k].Size() > 0) UpNearestGradOne<T>(gout, sum ? 0 : c_off, req[k], gin[k]);
      c_off += gin[k].shape[1];
    }
  })
}

}  // namespace nnx_cpu
}  // namespace weft
