// The portable convolution path: im2col + BLAS GEMM, grouped and dilated,
// 1-D/2-D/3-D through one 3-D code path. See Note [Convolution threading].
#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/base/error.h"
#include "core/op/cpu/nn_blas.h"
#include "core/op/cpu/nn_kernels.h"
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
// Each image is unfolded into col[(c, kd, kh, kw), (od, oh, ow)] and multiplied
// by the weights of each group. When one group's GEMM is large, OpenBLAS
// threads it and the unfolding is split across channels with ParallelFor;
// when it is small enough that OpenBLAS runs it on one thread (0.3.x: below
// 65536 * GEMM_MULTITHREAD_THRESHOLD(4) multiply-adds) the images themselves
// are split across threads, each with its own col buffer and, for the weight
// gradient, its own partial sum added up at the end. Larger GEMMs must not be
// issued from several threads at once: OpenBLAS (pthreads build) would thread
// each of them too, and the oversubscribed spinning costs 10x (measured).
constexpr int64_t kSmallGemm = int64_t(65536) * 4;  // multiply-adds of one group's GEMM

// Output positions o in [0, n_out) with 0 <= o * s + off < n_in, as [*lo, *hi).
void ValidRange(int64_t off, int64_t s, int64_t n_in, int64_t n_out, int64_t* lo, int64_t* hi) {
  int64_t l = off >= 0 ? 0 : (-off + s - 1) / s;
  int64_t h = n_in - off > 0 ? (n_in - off + s - 1) / s : 0;
  h = std::min(h, n_out);
  *lo = std::min(l, h);
  *hi = h;
}

// Unfolds rows [r0, r1) of col (row r = channel * kvol + kernel offset) from x.
template <typename T>
void Im2ColRows(const ConvGeom& g, const T* x, int64_t r0, int64_t r1, T* col) {
  const int64_t kvol = g.KernelSize(), ovol = g.OutSize(), ivol = g.InSize();
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t c = r / kvol, k = r % kvol;
    const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[1] * g.kernel[2]);
    const T* xc = x + c * ivol;
    T* dst = col + r * ovol;
    int64_t wlo, whi;
    const int64_t woff = kw * g.dilate[2] - g.pad[2];
    ValidRange(woff, g.stride[2], g.in[2], g.out[2], &wlo, &whi);
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const int64_t id = od * g.stride[0] - g.pad[0] + kd * g.dilate[0];
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        const int64_t ih = oh * g.stride[1] - g.pad[1] + kh * g.dilate[1];
        T* o = dst + (od * g.out[1] + oh) * g.out[2];
        if (id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1]) {
          std::fill(o, o + g.out[2], T(0));
          continue;
        }
        const T* row = xc + (id * g.in[1] + ih) * g.in[2] + woff;
        std::fill(o, o + wlo, T(0));
        if (g.stride[2] == 1) {
          std::memcpy(o + wlo, row + wlo, static_cast<size_t>(whi - wlo) * sizeof(T));
        } else {
          const int64_t s = g.stride[2];
          for (int64_t ow = wlo; ow < whi; ++ow) o[ow] = row[ow * s];
        }
        std::fill(o + whi, o + g.out[2], T(0));
      }
    }
  }
}

// Adds the columns of col back into channels [c0, c1) of dx (dx already holds
// zeros or the values to add to).
template <typename T>
void Col2ImChannels(const ConvGeom& g, const T* col, int64_t c0, int64_t c1, T* dx) {
  const int64_t kvol = g.KernelSize(), ovol = g.OutSize(), ivol = g.InSize();
  for (int64_t c = c0; c < c1; ++c) {
    T* xc = dx + c * ivol;
    for (int64_t k = 0; k < kvol; ++k) {
      const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[1] * g.kernel[2]);
      const T* src = col + (c * kvol + k) * ovol;
      int64_t wlo, whi;
      const int64_t woff = kw * g.dilate[2] - g.pad[2];
      ValidRange(woff, g.stride[2], g.in[2], g.out[2], &wlo, &whi);
      for (int64_t od = 0; od < g.out[0]; ++od) {
        const int64_t id = od * g.stride[0] - g.pad[0] + kd * g.dilate[0];
        if (id < 0 || id >= g.in[0]) continue;
        for (int64_t oh = 0; oh < g.out[1]; ++oh) {
          const int64_t ih = oh * g.stride[1] - g.pad[1] + kh * g.dilate[1];
          if (ih < 0 || ih >= g.in[1]) continue;
          T* row = xc + (id * g.in[1] + ih) * g.in[2] + woff;
          const T* s = src + (od * g.out[1] + oh) * g.out[2];
          const int64_t st = g.stride[2];
          for (int64_t ow = wlo; ow < whi; ++ow) row[ow * st] += s[ow];
        }
      }
    }
  }
}

template <typename T>
void Im2Col(const ConvGeom& g, const T* x, T* col, bool parallel) {
  const int64_t rows = g.in_c * g.KernelSize();
  if (!parallel) return Im2ColRows(g, x, 0, rows, col);
  ParallelFor(rows, g.OutSize(), [&](int64_t b, int64_t e) { Im2ColRows(g, x, b, e, col); });
}

template <typename T>
void Col2Im(const ConvGeom& g, const T* col, T* dx, bool parallel) {
  if (!parallel) return Col2ImChannels(g, col, 0, g.in_c, dx);
  ParallelFor(g.in_c, g.KernelSize() * g.OutSize(), [&](int64_t b, int64_t e) { Col2ImChannels(g, col, b, e, dx); });
}

// Multiply-adds of one image (all groups), and whether its GEMMs are small.
int64_t GemmWork(const ConvGeom& g) { return g.out_c * g.OutSize() * (g.in_c / g.groups) * g.KernelSize(); }
bool SplitImages(const ConvGeom& g) { return g.batch > 1 && GemmWork(g) / g.groups < kSmallGemm; }

// Runs fn(begin, end, parallel_inside) over the images: split across threads
// for small GEMMs, else one image at a time with threading inside.
template <typename F>
void ForImages(const ConvGeom& g, F fn) {
  if (SplitImages(g)) {
    ParallelFor(g.batch, GemmWork(g), [&](int64_t b, int64_t e) { fn(b, e, false); });
  } else {
    fn(0, g.batch, true);
  }
}

template <typename T>
void ForwardT(const ConvGeom& g, const T* x, const T* w, OpReq req, T* y) {
  const int64_t G = g.groups, kg = g.out_c / G, rows = (g.in_c / G) * g.KernelSize(), P = g.OutSize();
  const bool direct = g.IsPointwise();
  const T beta = req == OpReq::kAddTo ? T(1) : T(0);
  ForImages(g, [&](int64_t b, int64_t e, bool par) {
    T* col = direct ? nullptr : static_cast<T*>(ThreadScratch(0, sizeof(T) * g.in_c * g.KernelSize() * P));
    for (int64_t n = b; n < e; ++n) {
      const T* xn = x + n * g.in_c * g.InSize();
      if (!direct) Im2Col(g, xn, col, par);
      const T* cn = direct ? xn : col;
      for (int64_t gi = 0; gi < G; ++gi)
        Gemm(false, false, kg, P, rows, w + gi * kg * rows, rows, cn + gi * rows * P, P, beta,
             y + (n * g.out_c + gi * kg) * P, P);
    }
  });
}

// One image's gradients: dw_acc (beta_w)+= dy col^T, then dx from W^T dy.
template <typename T>
void BackwardImage(const ConvGeom& g, const T* dyn, const T* xn, const T* w, T* col, bool par, T* dw, T beta_w,
                   T* dxn, OpReq req_dx) {
  const int64_t G = g.groups, kg = g.out_c / G, cg = g.in_c / G, rows = cg * g.KernelSize(), P = g.OutSize();
  const bool direct = g.IsPointwise();
  if (dw != nullptr) {
    if (!direct) Im2Col(g, xn, col, par);
    const T* cn = direct ? xn : col;
    for (int64_t gi = 0; gi < G; ++gi)
      Gemm(false, true, kg, rows, P, dyn + gi * kg * P, P, cn + gi * rows * P, P, beta_w, dw + gi * kg * rows, rows);
  }
  if (req_dx == OpReq::kNull) return;
  if (direct) {
    const T beta = req_dx == OpReq::kAddTo ? T(1) : T(0);
    for (int64_t gi = 0; gi < G; ++gi)
      Gemm(true, false, rows, P, kg, w + gi * kg * rows, rows, dyn + gi * kg * P, P, beta, dxn + gi * rows * P, P);
    return;
  }
  for (int64_t gi = 0; gi < G; ++gi)
    Gemm(true, false, rows, P, kg, w + gi * kg * rows, rows, dyn + gi * kg * P, P, T(0), col + gi * rows * P, P);
  if (req_dx != OpReq::kAddTo) std::fill(dxn, dxn + g.in_c * g.InSize(), T(0));
  Col2Im(g, col, dxn, par);
}

template <typename T>
void BackwardT(const ConvGeom& g, const T* dy, const T* x, const T* w, OpReq req_dx, T* dx, OpReq req_dw, T* dw) {
  const int64_t P = g.OutSize(), S = g.InSize(), wsize = g.out_c * (g.in_c / g.groups) * g.KernelSize();
  const bool want_dw = req_dw != OpReq::kNull;
  if (!want_dw && req_dx == OpReq::kNull) return;
  const size_t col_bytes = g.IsPointwise() ? 0 : sizeof(T) * g.in_c * g.KernelSize() * P;
  if (SplitImages(g)) {
    // Images across threads; each chunk sums its weight gradient privately,
    // and the chunks are added in image order (deterministic results).
    std::vector<std::pair<int64_t, std::vector<T>>> partial;
    std::mutex mu;
    ParallelFor(g.batch, GemmWork(g), [&](int64_t b, int64_t e) {
      T* col = static_cast<T*>(ThreadScratch(0, col_bytes));
      std::vector<T> acc(want_dw ? static_cast<size_t>(wsize) : 0);
      for (int64_t n = b; n < e; ++n)
        BackwardImage(g, dy + n * g.out_c * P, x ? x + n * g.in_c * S : nullptr, w, col, false,
                      want_dw ? acc.data() : nullptr, n == b ? T(0) : T(1), dx ? dx + n * g.in_c * S : nullptr, req_dx);
      std::lock_guard<std::mutex> lock(mu);
      partial.emplace_back(b, std::move(acc));
    });
    if (want_dw) {
      std::sort(partial.begin(), partial.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = 0; i < partial.size(); ++i) {
        const bool first = i == 0 && req_dw != OpReq::kAddTo;
        const T* p = partial[i].second.data();
        for (int64_t j = 0; j < wsize; ++j) dw[j] = first ? p[j] : dw[j] + p[j];
      }
    }
    return;
  }
  T* col = static_cast<T*>(ThreadScratch(0, col_bytes));
  for (int64_t n = 0; n < g.batch; ++n) {
    const T beta_w = (n > 0 || req_dw == OpReq::kAddTo) ? T(1) : T(0);
    BackwardImage(g, dy + n * g.out_c * P, x ? x + n * g.in_c * S : nullptr, w, col, true, want_dw ? dw : nullptr,
                  beta_w, dx ? dx + n * g.in_c * S : nullptr, req_dx);
  }
  if (want_dw && g.batch == 0 && req_dw != OpReq::kAddTo) std::fill(dw, dw + wsize, T(0));
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
  if (y.dtype == DType::kFloat64) AddBiasT(b.ptr<double>(), n, c, s, y.ptr<double>());
  else AddBiasT(b.ptr<float>(), n, c, s, y.ptr<float>());
}

void BiasGrad(const TensorView& dy, int64_t n, int64_t c, int64_t s, OpReq req, const TensorView& db) {
  if (req == OpReq::kNull) return;
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
