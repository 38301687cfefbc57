// The portable convolution path: im2col + BLAS GEMM, grouped and dilated,
// 1-D/2-D/3-D through one 3-D code path. See Note [Convolution threading].
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/base/error.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/layer/layer_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn_cpu {

bool ConvGeom::IsPointwise() const {
  for (int i = 0; i < 3; ++i)
    if (kernel[i] != 1 || stride[i] != 1 || pad[i] != 0) return false;
  return true;
}

namespace {

// Note [Convolution threading]
// Images are unfolded side by side into col[(c, kd, kh, kw), (image, od, oh, ow)]
// a chunk at a time, so that one GEMM per group covers several images: small
// images (late ResNet layers, LeNet) still give OpenBLAS a GEMM large enough
// to thread well. OpenBLAS threads the GEMMs; ParallelFor splits unfolding and
// folding across rows and channels. Per-image GEMMs on several threads at once
// were tried and dropped: OpenBLAS (pthreads build) threads each call too, and
// the oversubscribed spinning cost 10x on LeNet's conv2 with two threads.
constexpr int64_t kTargetColumns = 2048;               // GEMM width aimed for per chunk
constexpr int64_t kMaxColBytes = int64_t(64) << 20;   // bound on the unfolded chunk

// Output positions o in [0, n_out) with 0 <= o * s + off < n_in, as [*lo, *hi).
void ValidRange(int64_t off, int64_t s, int64_t n_in, int64_t n_out, int64_t* lo, int64_t* hi) {
  int64_t l = off >= 0 ? 0 : (-off + s - 1) / s;
  int64_t h = n_in - off > 0 ? (n_in - off + s - 1) / s : 0;
  h = std::min(h, n_out);
  *lo = std::min(l, h);
  *hi = h;
}

// Unfolds row r (= channel * kvol + kernel offset) of one image's col from x;
// the row starts at dst (OutSize() values).
template <typename T>
void Im2ColRow(const ConvGeom& g, const T* x, int64_t r, T* dst) {
  const int64_t kvol = g.KernelSize();
  const int64_t c = r / kvol, k = r % kvol;
  const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[1] * g.kernel[2]);
  const T* xc = x + c * g.InSize();
  int64_t wlo, whi;
  const int64_t woff = kw * g.dilate[2] - g.pad[2], st = g.stride[2];
  ValidRange(woff, st, g.in[2], g.out[2], &wlo, &whi);
  for (int64_t od = 0; od < g.out[0]; ++od) {
    const int64_t id = od * g.stride[0] - g.pad[0] + kd * g.dilate[0];
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const int64_t ih = oh * g.stride[1] - g.pad[1] + kh * g.dilate[1];
      T* o = dst + (od * g.out[1] + oh) * g.out[2];
      if (id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1]) {
        std::fill(o, o + g.out[2], T(0));
        continue;
      }
      const T* row = xc + (id * g.in[1] + ih) * g.in[2];
      std::fill(o, o + wlo, T(0));
      if (st == 1) {
        std::memcpy(o + wlo, row + (wlo + woff), static_cast<size_t>(whi - wlo) * sizeof(T));
      } else {
        for (int64_t ow = wlo; ow < whi; ++ow) o[ow] = row[ow * st + woff];
      }
      std::fill(o + whi, o + g.out[2], T(0));
    }
  }
}

// Adds one image's col (rows of OutSize() values, row stride ld) back into
// channel c of dx (which holds zeros or the values to add to).
template <typename T>
void Col2ImChannel(const ConvGeom& g, const T* col, int64_t ld, int64_t c, T* dx) {
  const int64_t kvol = g.KernelSize();
  T* xc = dx + c * g.InSize();
  for (int64_t k = 0; k < kvol; ++k) {
    const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[1] * g.kernel[2]);
    const T* src = col + (c * kvol + k) * ld;
    int64_t wlo, whi;
    const int64_t woff = kw * g.dilate[2] - g.pad[2], st = g.stride[2];
    ValidRange(woff, st, g.in[2], g.out[2], &wlo, &whi);
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const int64_t id = od * g.stride[0] - g.pad[0] + kd * g.dilate[0];
      if (id < 0 || id >= g.in[0]) continue;
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        const int64_t ih = oh * g.stride[1] - g.pad[1] + kh * g.dilate[1];
        if (ih < 0 || ih >= g.in[1]) continue;
        T* row = xc + (id * g.in[1] + ih) * g.in[2];
        const T* s = src + (od * g.out[1] + oh) * g.out[2];
        for (int64_t ow = wlo; ow < whi; ++ow) row[ow * st + woff] += s[ow];
      }
    }
  }
}

// A chunk of `nb` images starting at n0, unfolded with row stride ld = nb * P.
struct Chunk {
  int64_t n0, nb, ld;
};

int64_t ImagesPerChunk(const ConvGeom& g, size_t elem) {
  const int64_t P = g.OutSize(), rows = g.in_c * g.KernelSize();
  int64_t nb = std::max<int64_t>(1, (kTargetColumns + P - 1) / P);
  nb = std::min(nb, std::max<int64_t>(1, kMaxColBytes / std::max<int64_t>(1, rows * P * static_cast<int64_t>(elem))));
  return std::max<int64_t>(1, std::min(nb, g.batch));
}

// Runs fn(chunk) over the batch.
template <typename T, typename F>
void ForChunks(const ConvGeom& g, F fn) {
  const int64_t nb = ImagesPerChunk(g, sizeof(T)), P = g.OutSize();
  for (int64_t n0 = 0; n0 < g.batch; n0 += nb) {
    const int64_t cnt = std::min(nb, g.batch - n0);
    fn(Chunk{n0, cnt, cnt * P});
  }
}

// The GEMM operand of a chunk's input: x itself for one image of a pointwise
// convolution, else the images unfolded into col.
template <typename T>
const T* Unfold(const ConvGeom& g, const T* x, const Chunk& ch, T* col) {
  const int64_t rows = g.in_c * g.KernelSize(), P = g.OutSize(), S = g.in_c * g.InSize();
  if (g.IsPointwise() && ch.nb == 1) return x + ch.n0 * S;
  ParallelFor(ch.nb * rows, P, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t i = t / rows, r = t % rows;
      Im2ColRow(g, x + (ch.n0 + i) * S, r, col + r * ch.ld + i * P);
    }
  });
  return col;
}

// Copies rows of `channels` x P per image between the batch layout
// (n, channel, P) and the chunk layout (channel, image * P); kAddTo adds.
template <typename T>
void ChunkToBatch(const T* src, const Chunk& ch, int64_t channels, int64_t P, OpReq req, T* dst) {
  ParallelFor(ch.nb * channels, P, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t i = t / channels, c = t % channels;
      const T* s = src + c * ch.ld + i * P;
      T* d = dst + ((ch.n0 + i) * channels + c) * P;
      if (req == OpReq::kAddTo) {
        for (int64_t j = 0; j < P; ++j) d[j] += s[j];
      } else {
        std::memcpy(d, s, static_cast<size_t>(P) * sizeof(T));
      }
    }
  });
}

template <typename T>
void BatchToChunk(const T* src, const Chunk& ch, int64_t channels, int64_t P, T* dst) {
  ParallelFor(ch.nb * channels, P, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t i = t / channels, c = t % channels;
      std::memcpy(dst + c * ch.ld + i * P, src + ((ch.n0 + i) * channels + c) * P, static_cast<size_t>(P) * sizeof(T));
    }
  });
}

template <typename T>
void ForwardT(const ConvGeom& g, const T* x, const T* w, OpReq req, T* y) {
  const int64_t G = g.groups, kg = g.out_c / G, rows = (g.in_c / G) * g.KernelSize(), P = g.OutSize();
  const int64_t nb = ImagesPerChunk(g, sizeof(T));
  T* col = static_cast<T*>(ThreadScratch(0, sizeof(T) * g.in_c * g.KernelSize() * nb * P));
  T* tmp = static_cast<T*>(ThreadScratch(1, sizeof(T) * g.out_c * nb * P));
  ForChunks<T>(g, [&](const Chunk& ch) {
    const T* cn = Unfold(g, x, ch, col);
    // One image writes y directly (with the write mode); several go through tmp.
    const bool direct = ch.nb == 1;
    const T beta = direct && req == OpReq::kAddTo ? T(1) : T(0);
    T* out = direct ? y + ch.n0 * g.out_c * P : tmp;
    for (int64_t gi = 0; gi < G; ++gi)
      Gemm(false, false, kg, ch.ld, rows, w + gi * kg * rows, rows, cn + gi * rows * ch.ld, ch.ld, beta,
           out + gi * kg * ch.ld, ch.ld);
    if (!direct) ChunkToBatch(tmp, ch, g.out_c, P, req, y);
  });
}

template <typename T>
void BackwardT(const ConvGeom& g, const T* dy, const T* x, const T* w, OpReq req_dx, T* dx, OpReq req_dw, T* dw) {
  const int64_t G = g.groups, kg = g.out_c / G, rows = (g.in_c / G) * g.KernelSize(), P = g.OutSize();
  const int64_t S = g.in_c * g.InSize(), wsize = g.out_c * rows;
  if (req_dw == OpReq::kNull && req_dx == OpReq::kNull) return;
  if (req_dw != OpReq::kNull && req_dw != OpReq::kAddTo) std::fill(dw, dw + wsize, T(0));
  const int64_t nb = ImagesPerChunk(g, sizeof(T));
  T* col = static_cast<T*>(ThreadScratch(0, sizeof(T) * g.in_c * g.KernelSize() * nb * P));
  T* tmp = static_cast<T*>(ThreadScratch(1, sizeof(T) * g.out_c * nb * P));
  ForChunks<T>(g, [&](const Chunk& ch) {
    const T* dyc = dy + ch.n0 * g.out_c * P;
    if (ch.nb > 1) {
      BatchToChunk(dy, ch, g.out_c, P, tmp);
      dyc = tmp;
    }
    if (req_dw != OpReq::kNull) {
      const T* cn = Unfold(g, x, ch, col);
      for (int64_t gi = 0; gi < G; ++gi)
        Gemm(false, true, kg, rows, ch.ld, dyc + gi * kg * ch.ld, ch.ld, cn + gi * rows * ch.ld, ch.ld, T(1),
             dw + gi * kg * rows, rows);
    }
    if (req_dx == OpReq::kNull) return;
    if (g.IsPointwise() && ch.nb == 1) {
      const T beta = req_dx == OpReq::kAddTo ? T(1) : T(0);
      for (int64_t gi = 0; gi < G; ++gi)
        Gemm(true, false, rows, P, kg, w + gi * kg * rows, rows, dyc + gi * kg * P, P, beta,
             dx + ch.n0 * S + gi * rows * P, P);
      return;
    }
    for (int64_t gi = 0; gi < G; ++gi)
      Gemm(true, false, rows, ch.ld, kg, w + gi * kg * rows, rows, dyc + gi * kg * ch.ld, ch.ld, T(0),
           col + gi * rows * ch.ld, ch.ld);
    ParallelFor(ch.nb * g.in_c, g.KernelSize() * P, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const int64_t i = t / g.in_c, c = t % g.in_c;
        T* dxn = dx + (ch.n0 + i) * S;
        if (req_dx != OpReq::kAddTo) std::fill(dxn + c * g.InSize(), dxn + (c + 1) * g.InSize(), T(0));
        Col2ImChannel(g, col + i * P, ch.ld, c, dxn);
      }
    });
  });
}

template <typename T>
void AddBiasT(const T* b, int64_t n, int64_t c, int64_t s, T* y) {
  ParallelFor(n * c, s, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      const T v = b[i % c];
      T* row = y + i * s;
      for (int64_t j = 0; j < s; ++j) row[j] += v;
    }
  });
}

template <typename T>
void BiasGradT(const T* dy, int64_t n, int64_t c, int64_t s, OpReq req, T* db) {
  for (int64_t ci = 0; ci < c; ++ci) {
    double acc = 0;
    for (int64_t ni = 0; ni < n; ++ni) {
      const T* row = dy + (ni * c + ci) * s;
      T part = 0;
      for (int64_t j = 0; j < s; ++j) part += row[j];
      acc += part;
    }
    StoreReq(req, db + ci, static_cast<T>(acc));
  }
}

void CheckFloat(DType t, const char* what) {
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << what << ": only float32 and float64 are supported, got " << DTypeName(t);
}

}  // namespace

void AddBias(const TensorView& b, int64_t n, int64_t c, int64_t s, const TensorView& y) {
  CheckFloat(y.dtype, "Convolution bias");  // 16-bit data reaches the CPU kernels (GPU-only dtypes)
  if (y.dtype == DType::kFloat64) AddBiasT(b.ptr<double>(), n, c, s, y.ptr<double>());
  else AddBiasT(b.ptr<float>(), n, c, s, y.ptr<float>());
}

void BiasGrad(const TensorView& dy, int64_t n, int64_t c, int64_t s, OpReq req, const TensorView& db) {
  if (req == OpReq::kNull) return;
  CheckFloat(dy.dtype, "Convolution bias gradient");
  if (dy.dtype == DType::kFloat64) BiasGradT(dy.ptr<double>(), n, c, s, req, db.ptr<double>());
  else BiasGradT(dy.ptr<float>(), n, c, s, req, db.ptr<float>());
}

namespace portable {

void ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y) {
  if (req == OpReq::kNull) return;
  CheckFloat(x.dtype, "Convolution");
  if (x.dtype == DType::kFloat64) ForwardT(g, x.ptr<double>(), w.ptr<double>(), req, y.ptr<double>());
  else ForwardT(g, x.ptr<float>(), w.ptr<float>(), req, y.ptr<float>());
  if (b != nullptr) AddBias(*b, g.batch, g.out_c, g.OutSize(), y);
}

void ConvBackward(const ConvGeom& g, const TensorView& dy, const TensorView& x, const TensorView& w, OpReq req_dx,
                  const TensorView& dx, OpReq req_dw, const TensorView& dw, const TensorView* db, OpReq req_db) {
  CheckFloat(dy.dtype, "Convolution backward");
  if (dy.dtype == DType::kFloat64)
    BackwardT(g, dy.ptr<double>(), x.ptr<double>(), w.ptr<double>(), req_dx, dx.ptr<double>(), req_dw,
              dw.ptr<double>());
  else
    BackwardT(g, dy.ptr<float>(), x.ptr<float>(), w.ptr<float>(), req_dx, dx.ptr<float>(), req_dw, dw.ptr<float>());
  if (db != nullptr) BiasGrad(dy, g.batch, g.out_c, g.OutSize(), req_db, *db);
}

}  // namespace portable
}  // namespace nn_cpu
}  // namespace weft
