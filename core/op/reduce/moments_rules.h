// The plan of moments and _backward_moments, shared by the declaration, the
// CPU kernels and the GPU kernels: the input's dims split into kept dims (one
// output element per position) and reduced dims (the axes), with the input's
// element strides of each; and the arithmetic of one output element, which
// both kernels run (moments_cpu.cc over threads, moments.cu one thread each).
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct MomentsPlan {
  static constexpr int kMaxDims = 12;
  int nk = 0, nr = 0;  // kept / reduced dims
  int64_t kdim[kMaxDims] = {}, kstride[kMaxDims] = {};
  int64_t rdim[kMaxDims] = {}, rstride[kMaxDims] = {};
  int64_t kept = 1, reduced = 1;  // elements of the output / per output element

  // The input offset of output element o's first reduced element, and of its
  // reduced element r after that.
  WEFT_HD int64_t KeptOffset(int64_t o) const {
    int64_t off = 0;
    for (int d = nk - 1; d >= 0; --d) {
      off += (o % kdim[d]) * kstride[d];
      o /= kdim[d];
    }
    return off;
  }
  WEFT_HD int64_t ReducedOffset(int64_t r) const {
    int64_t off = 0;
    for (int d = nr - 1; d >= 0; --d) {
      off += (r % rdim[d]) * rstride[d];
      r /= rdim[d];
    }
    return off;
  }
};

// The plan for input shape `in` and moments' parameters (axes, keepdims);
// *out_shape (when given) receives the outputs' shape. Throws kInvalidArgument
// naming the op for an axis out of range or repeated.
MomentsPlan MomentsPlanOf(const Params& p, const Shape& in, Shape* out_shape = nullptr);

// mean[o] and var[o] (population variance) of output element o: two passes
// over its reduced elements (the mean, then the squared deviations), in double.
template <typename T>
WEFT_HD inline void MomentsAt(const MomentsPlan& plan, int64_t o, const T* x, OpReq req_mean, T* mean, OpReq req_var,
                              T* var) {
  // No reduced element (an empty input, whose strides may have saturated): the mean and
  // variance of nothing are stored without computing an offset into it.
  const int64_t base = plan.reduced > 0 ? plan.KeptOffset(o) : 0;
  double s = 0;
  for (int64_t r = 0; r < plan.reduced; ++r) s += static_cast<double>(x[base + plan.ReducedOffset(r)]);
  const double m = s / static_cast<double>(plan.reduced);
  double q = 0;
  for (int64_t r = 0; r < plan.reduced; ++r) {
    const double d = static_cast<double>(x[base + plan.ReducedOffset(r)]) - m;
    q += d * d;
  }
  nnm::Store(mean, o, req_mean, static_cast<T>(m));
  nnm::Store(var, o, req_var, static_cast<T>(q / static_cast<double>(plan.reduced)));
}

// gx over output element o's reduced elements: (g_mean + 2 g_var (x - mean)) / n.
template <typename T>
WEFT_HD inline void MomentsGradAt(const MomentsPlan& plan, int64_t o, const T* g_mean, const T* g_var, const T* x,
                                  const T* mean, OpReq req, T* gx) {
  const double inv_n = 1.0 / static_cast<double>(plan.reduced);
  const int64_t base = plan.KeptOffset(o);
  const double a = static_cast<double>(g_mean[o]), v2 = 2.0 * static_cast<double>(g_var[o]);
  const double m = static_cast<double>(mean[o]);
  for (int64_t r = 0; r < plan.reduced; ++r) {
    const int64_t k = base + plan.ReducedOffset(r);
    nnm::Store(gx, k, req, static_cast<T>((a + v2 * (static_cast<double>(x[k]) - m)) * inv_n));
  }
}

}  // namespace tensor
}  // namespace weft
