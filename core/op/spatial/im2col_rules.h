// The index rules of im2col and col2im, shared by their CPU kernels
// (core/op/spatial/im2col.cc) and their GPU kernels (im2col.cu).
#pragma once
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace nnm {

constexpr int kMaxColDims = 3;

// An image (N, C, in...) and its columns (N, C * K, L): K = prod(kernel),
// L = prod(out), out = (in + 2 pad - dilate (kernel - 1) - 1) / stride + 1.
// Row c * K + k of the columns holds channel c at kernel offset k (row-major
// over the kernel), column l the output position l (row-major over out).
struct ColGeom {
  int nd = 0;
  int64_t batch = 1, channels = 1, K = 1, L = 1, image = 1;  // image = prod(in)
  int64_t in[kMaxColDims] = {}, out[kMaxColDims] = {}, kernel[kMaxColDims] = {}, stride[kMaxColDims] = {},
          dilate[kMaxColDims] = {}, pad[kMaxColDims] = {};
};

// Columns element e (im2col's output): the image value it copies, or 0 in the padding.
template <typename T>
WEFT_HD inline T Im2colValue(int64_t e, const ColGeom& g, const T* x) {
  const int64_t l = e % g.L, row = (e / g.L) % (g.channels * g.K), n = e / (g.L * g.channels * g.K);
  const int64_t c = row / g.K;
  int64_t k = row % g.K, o = l, off = 0;
  for (int d = g.nd - 1; d >= 0; --d) {
    const int64_t kd = k % g.kernel[d], od = o % g.out[d];
    k /= g.kernel[d];
    o /= g.out[d];
    const int64_t p = od * g.stride[d] - g.pad[d] + kd * g.dilate[d];
    if (p < 0 || p >= g.in[d]) return static_cast<T>(0.0f);
    int64_t step = 1;
    for (int q = d + 1; q < g.nd; ++q) step *= g.in[q];
    off += p * step;
  }
  return x[(n * g.channels + c) * g.image + off];
}

// Image element e (col2im's output): the sum of every column entry that maps
// to it (the adjoint of im2col). A is the accumulation type.
template <typename T, typename A>
WEFT_HD inline A Col2imValue(int64_t e, const ColGeom& g, const T* col) {
  const int64_t pos = e % g.image, nc = e / g.image;
  const int64_t c = nc % g.channels, n = nc / g.channels;
  int64_t p[kMaxColDims] = {};
  int64_t rest = pos;
  for (int d = g.nd - 1; d >= 0; --d) {
    p[d] = rest % g.in[d];
    rest /= g.in[d];
  }
  A sum = A(0);
  for (int64_t k = 0; k < g.K; ++k) {
    int64_t kk = k, l = 0, lstep = 1;
    bool hit = true;
    for (int d = g.nd - 1; d >= 0 && hit; --d) {
      const int64_t kd = kk % g.kernel[d];
      kk /= g.kernel[d];
      const int64_t q = p[d] + g.pad[d] - kd * g.dilate[d];
      if (q < 0 || q % g.stride[d] != 0 || q / g.stride[d] >= g.out[d]) {
        hit = false;
      } else {
        l += (q / g.stride[d]) * lstep;
        lstep *= g.out[d];
      }
    }
    if (hit) sum += static_cast<A>(col[((n * g.channels + c) * g.K + k) * g.L + l]);
  }
  return sum;
}

}  // namespace nnm
}  // namespace weft
