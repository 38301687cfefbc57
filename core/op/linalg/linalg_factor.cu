// GPU kernels of _linalg_potrf, _linalg_potri, _linalg_inverse, _linalg_det,
// _linalg_slogdet, _linalg_gelqf and _linalg_syevd (declarations and CPU
// kernels: factor.cc). One thread per matrix of the batch, computing in
// double in scratch memory: plain Cholesky, Gauss-Jordan/LU with partial
// pivoting (LAPACK's pivot choice, so det's sign agrees), Householder LQ with
// LAPACK's reflector signs (dlarfg), and cyclic Jacobi for the symmetric
// eigenproblem, then MXNet's eigenvector sign rule. cuSOLVER (potrfBatched,
// getrfBatched, gesvdj/syevjBatched) would be the production path; these
// kernels are for small matrices and for checking against the CPU. A matrix
// that is not positive definite (potrf) or singular (inverse) gives NaN/inf
// here; the CPU kernels raise an error.
#include <cmath>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_gpu_util.cuh"
#include "core/op/linalg/lu_rules.h"

namespace weft {
namespace cuda {
namespace {

using linalg_gpu::LastDim;
using linalg_gpu::OutSlot;
using linalg_gpu::ScratchPlan;
using linalg::LuInPlace;
using linalg::ScaledInverseTransposeFromLu;


// In-place Cholesky of the n x n matrix w (lower triangle read and written).
WEFT_HD inline void CholeskyLower(double* w, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    double d = w[j * n + j];
    for (int64_t k = 0; k < j; ++k) d -= w[j * n + k] * w[j * n + k];
    d = std::sqrt(d);
    w[j * n + j] = d;
    for (int64_t i = j + 1; i < n; ++i) {
      double s = w[i * n + j];
      for (int64_t k = 0; k < j; ++k) s -= w[i * n + k] * w[j * n + k];
      w[i * n + j] = s / d;
    }
  }
}

// w (n x n) := the lower-triangular factor input `a` stands for: its lower
// triangle, or the transpose of its upper one (lower = false).
template <typename T>
WEFT_HD inline void LoadLower(const T* a, int64_t n, bool lower, double* w) {
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < n; ++c)
      w[r * n + c] = c <= r ? static_cast<double>(lower ? a[r * n + c] : a[c * n + r]) : 0.0;
}

template <typename T>
void PotrfT(const OpContext& ctx, const Params& p, const TensorView& in, OpReq req, const TensorView& out) {
  const bool lower = p.GetBool("lower");
  const int64_t n = LastDim(in), batch = in.Size() / (n * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(in.Size()));
  OutSlot<T> o;
  o.Plan(&plan, out, req);
  plan.Allocate(ctx);
  o.Bind(plan);
  double* W = plan.At<double>(wat);
  const T* A = in.ptr<T>();
  T* O = o.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* w = W + b * n * n;
    LoadLower(A + b * n * n, n, lower, w);  // A's lower (upper) triangle is A's symmetric content
    CholeskyLower(w, n);
    T* out_m = O + b * n * n;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c) {
        const double v = lower ? (c <= r ? w[r * n + c] : 0.0) : (c >= r ? w[c * n + r] : 0.0);
        out_m[r * n + c] = static_cast<T>(v);
      }
  });
  o.AddBack(ctx);
}

template <typename T>
void PotriT(const OpContext& ctx, const Params& p, const TensorView& in, OpReq req, const TensorView& out) {
  const bool lower = p.GetBool("lower");
  const int64_t n = LastDim(in), batch = in.Size() / (n * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(in.Size()));
  OutSlot<T> o;
  o.Plan(&plan, out, req);
  plan.Allocate(ctx);
  o.Bind(plan);
  double* W = plan.At<double>(wat);
  const T* A = in.ptr<T>();
  T* O = o.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* w = W + b * n * n;
    LoadLower(A + b * n * n, n, lower, w);
    // w := L^-1 in place (lower triangular), column by column from the right.
    for (int64_t j = 0; j < n; ++j) w[j * n + j] = 1.0 / w[j * n + j];
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j + 1; i < n; ++i) {
        double s = 0;
        for (int64_t k = j; k < i; ++k) s += w[i * n + k] * w[k * n + j];
        w[i * n + j] = -s * w[i * n + i];
      }
    // (L L^T)^-1 = L^-T L^-1.
    T* out_m = O + b * n * n;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c) {
        double s = 0;
        for (int64_t k = r > c ? r : c; k < n; ++k) s += w[k * n + r] * w[k * n + c];
        out_m[r * n + c] = static_cast<T>(s);
      }
  });
  o.AddBack(ctx);
}

template <typename T>
void InverseT(const OpContext& ctx, const TensorView& in, OpReq req, const TensorView& out) {
  const int64_t n = LastDim(in), batch = in.Size() / (n * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(2 * in.Size()));
  OutSlot<T> o;
  o.Plan(&plan, out, req);
  plan.Allocate(ctx);
  o.Bind(plan);
  double* W = plan.At<double>(wat);
  const T* A = in.ptr<T>();
  T* O = o.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* w = W + 2 * b * n * n;  // w | v: Gauss-Jordan on [A | I]
    double* v = w + n * n;
    for (int64_t i = 0; i < n * n; ++i) {
      w[i] = static_cast<double>(A[b * n * n + i]);
      v[i] = (i / n == i % n) ? 1.0 : 0.0;
    }
    for (int64_t k = 0; k < n; ++k) {
      int64_t piv = k;
      for (int64_t i = k + 1; i < n; ++i)
        if (std::fabs(w[i * n + k]) > std::fabs(w[piv * n + k])) piv = i;
      for (int64_t c = 0; c < n && piv != k; ++c) {
        double t = w[k * n + c];
        w[k * n + c] = w[piv * n + c];
        w[piv * n + c] = t;
        t = v[k * n + c];
        v[k * n + c] = v[piv * n + c];
        v[piv * n + c] = t;
      }
      const double d = 1.0 / w[k * n + k];
      for (int64_t c = 0; c < n; ++c) {
        w[k * n + c] *= d;
        v[k * n + c] *= d;
      }
      for (int64_t i = 0; i < n; ++i) {
        if (i == k) continue;
        const double f = w[i * n + k];
        if (f == 0) continue;
        for (int64_t c = 0; c < n; ++c) {
          w[i * n + c] -= f * w[k * n + c];
          v[i * n + c] -= f * v[k * n + c];
        }
      }
    }
    for (int64_t i = 0; i < n * n; ++i) O[b * n * n + i] = static_cast<T>(v[i]);
  });
  o.AddBack(ctx);
}

// det (mode 0) or sign and log|det| (mode 1) of each matrix, then the hidden
// LU and pivot outputs (lu_rules.h's layout, as the CPU kernel writes them).
template <typename T>
void DetT(int mode, const OpContext& ctx, const TensorView& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  const int64_t n = LastDim(in), batch = in.Size() / (n * n);
  const size_t values = mode == 1 ? 2 : 1;
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(in.Size()));
  const size_t pat = plan.Add(sizeof(int32_t) * static_cast<size_t>(batch * n));
  plan.Allocate(ctx);
  double* W = plan.At<double>(wat);
  int32_t* P = plan.At<int32_t>(pat);
  const T* A = in.ptr<T>();
  T* o0 = out[0].ptr<T>();
  T* o1 = mode == 1 ? out[1].ptr<T>() : nullptr;
  T* lu = out[values].ptr<T>();
  int32_t* piv = out[values + 1].ptr<int32_t>();
  const OpReq r0 = req[0], r1 = mode == 1 ? req[1] : OpReq::kNull;
  const OpReq rlu = req[values], rpiv = req[values + 1];
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* w = W + b * n * n;
    int32_t* ip = P + b * n;
    for (int64_t i = 0; i < n * n; ++i) w[i] = static_cast<double>(A[b * n * n + i]);
    double sign = LuInPlace(w, n, ip), logabs = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double u = w[i * n + i];
      if (u < 0) sign = -sign;
      if (u == 0) sign = 0;
      logabs += std::log(std::fabs(u));
    }
    if (o1 == nullptr) {
      if (r0 != OpReq::kNull) Assign(o0, b, r0, static_cast<T>(sign == 0 ? 0.0 : sign * std::exp(logabs)));
    } else {
      if (r0 != OpReq::kNull) Assign(o0, b, r0, static_cast<T>(sign));
      if (r1 != OpReq::kNull) Assign(o1, b, r1, static_cast<T>(logabs));
    }
    if (rlu != OpReq::kNull)
      for (int64_t i = 0; i < n * n; ++i) Assign(lu, b * n * n + i, rlu, static_cast<T>(w[i]));
    if (rpiv != OpReq::kNull)
      for (int64_t i = 0; i < n; ++i) Assign(piv, b * n + i, rpiv, ip[i]);
  });
}

// _backward_linalg_det (mode 0: scale = out_grad * det) and
// _backward_linalg_slogdet (mode 1: scale = logabsdet_grad): scale * A^-T from
// the saved LU and pivot. A singular matrix gives inf/NaN here (the CPU raises).
template <typename T>
void BackwardDetT(int mode, const OpContext& ctx, const std::vector<TensorView>& in, OpReq req,
                  const TensorView& out) {
  const TensorView& luv = in[2];
  const int64_t n = LastDim(luv), batch = luv.Size() / (n * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(luv.Size()));
  OutSlot<T> o;
  o.Plan(&plan, out, req);
  plan.Allocate(ctx);
  o.Bind(plan);
  double* W = plan.At<double>(wat);
  const T* g0 = in[0].ptr<T>();
  const T* g1 = in[1].ptr<T>();
  const T* lu = luv.ptr<T>();
  const int32_t* piv = in[3].ptr<int32_t>();
  T* O = o.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    const double scale = mode == 1 ? static_cast<double>(g1[b]) : static_cast<double>(g0[b]) * static_cast<double>(g1[b]);
    ScaledInverseTransposeFromLu(lu + b * n * n, piv + b * n, n, scale, W + b * n * n, O + b * n * n);
  });
  o.AddBack(ctx);
}

// A = L Q by Householder reflections of the rows (LAPACK gelqf's reflectors, dlarfg's signs).
template <typename T>
void GelqfT(const OpContext& ctx, const TensorView& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  const int64_t m = in.shape[in.ndim() - 2], n = LastDim(in), batch = in.Size() / (m * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(in.Size() + batch * (m + m * n)));
  OutSlot<T> q, l;
  q.Plan(&plan, out[0], req[0]);
  l.Plan(&plan, out[1], req[1]);
  plan.Allocate(ctx);
  q.Bind(plan);
  l.Bind(plan);
  double* W = plan.At<double>(wat);
  const T* A = in.ptr<T>();
  T* Q = q.dst;
  T* L = l.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* w = W + b * (2 * m * n + m);
    double* tau = w + m * n;
    double* qd = tau + m;
    for (int64_t i = 0; i < m * n; ++i) w[i] = static_cast<double>(A[b * m * n + i]);
    for (int64_t i = 0; i < m; ++i) {
      double* x = w + i * n;  // row i, entries i..n-1
      const double alpha = x[i];
      double xnorm = 0;
      for (int64_t j = i + 1; j < n; ++j) xnorm += x[j] * x[j];
      xnorm = std::sqrt(xnorm);
      if (xnorm == 0) {
        tau[i] = 0;
        continue;
      }
      const double beta = -std::copysign(std::sqrt(alpha * alpha + xnorm * xnorm), alpha);
      tau[i] = (beta - alpha) / beta;
      const double scale = 1.0 / (alpha - beta);
      for (int64_t j = i + 1; j < n; ++j) x[j] *= scale;
      x[i] = beta;
      for (int64_t r = i + 1; r < m; ++r) {  // rows below: row_r H_i, v = (1, x[i+1..])
        double* y = w + r * n;
        double d = y[i];
        for (int64_t j = i + 1; j < n; ++j) d += y[j] * x[j];
        d *= tau[i];
        y[i] -= d;
        for (int64_t j = i + 1; j < n; ++j) y[j] -= d * x[j];
      }
    }
    // Q = [I 0] H_{m-1} ... H_0.
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < n; ++c) qd[r * n + c] = r == c ? 1.0 : 0.0;
    for (int64_t i = m - 1; i >= 0; --i) {
      const double* x = w + i * n;
      for (int64_t r = 0; r < m; ++r) {
        double* y = qd + r * n;
        double d = y[i];
        for (int64_t j = i + 1; j < n; ++j) d += y[j] * x[j];
        d *= tau[i];
        y[i] -= d;
        for (int64_t j = i + 1; j < n; ++j) y[j] -= d * x[j];
      }
    }
    for (int64_t i = 0; i < m * n; ++i) Q[b * m * n + i] = static_cast<T>(qd[i]);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < m; ++c) L[b * m * m + r * m + c] = static_cast<T>(c <= r ? w[r * n + c] : 0.0);
  });
  q.AddBack(ctx);
  l.AddBack(ctx);
}

// Cyclic Jacobi: A (lower triangle read) = V diag(w) V^T; U's rows are V's columns, ascending.
template <typename T>
void SyevdT(const OpContext& ctx, const TensorView& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  const int64_t n = LastDim(in), batch = in.Size() / (n * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(2 * in.Size()));
  OutSlot<T> u, l;
  u.Plan(&plan, out[0], req[0]);
  l.Plan(&plan, out[1], req[1]);
  plan.Allocate(ctx);
  u.Bind(plan);
  l.Bind(plan);
  double* W = plan.At<double>(wat);
  const T* A = in.ptr<T>();
  T* U = u.dst;
  T* L = l.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* a = W + 2 * b * n * n;
    double* v = a + n * n;
    const T* src = A + b * n * n;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c) {
        a[r * n + c] = static_cast<double>(c <= r ? src[r * n + c] : src[c * n + r]);
        v[r * n + c] = r == c ? 1.0 : 0.0;
      }
    for (int sweep = 0; sweep < 100; ++sweep) {
      double off = 0, total = 0;
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c) {
          total += a[r * n + c] * a[r * n + c];
          if (r != c) off += a[r * n + c] * a[r * n + c];
        }
      if (off <= 1e-30 * total || off == 0) break;
      for (int64_t p = 0; p < n; ++p)
        for (int64_t q = p + 1; q < n; ++q) {
          const double apq = a[p * n + q];
          if (apq == 0) continue;
          const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
          const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
          const double c = 1 / std::sqrt(t * t + 1), s = t * c;
          for (int64_t k = 0; k < n; ++k) {  // a := a J (columns p, q)
            const double akp = a[k * n + p], akq = a[k * n + q];
            a[k * n + p] = c * akp - s * akq;
            a[k * n + q] = s * akp + c * akq;
            const double vkp = v[k * n + p], vkq = v[k * n + q];
            v[k * n + p] = c * vkp - s * vkq;
            v[k * n + q] = s * vkp + c * vkq;
          }
          for (int64_t k = 0; k < n; ++k) {  // a := J^T a (rows p, q)
            const double apk = a[p * n + k], aqk = a[q * n + k];
            a[p * n + k] = c * apk - s * aqk;
            a[q * n + k] = s * apk + c * aqk;
          }
        }
    }
    T* uo = U + b * n * n;
    T* lo = L + b * n;
    for (int64_t r = 0; r < n; ++r) {  // the r-th smallest eigenvalue (ties keep Jacobi's order)
      int64_t best = -1;
      for (int64_t j = 0; j < n; ++j) {
        int64_t smaller = 0;  // rank of eigenvalue j: how many come before it
        for (int64_t t = 0; t < n; ++t) {
          const double et = a[t * n + t], ej = a[j * n + j];
          if (et < ej || (et == ej && t < j)) ++smaller;
        }
        if (smaller == r) best = j;
      }
      lo[r] = static_cast<T>(a[best * n + best]);
      int64_t k = 0;  // MXNet's sign rule: the entry of largest magnitude (first) is positive
      for (int64_t j = 1; j < n; ++j)
        if (std::fabs(v[j * n + best]) > std::fabs(v[k * n + best])) k = j;
      const double sg = v[k * n + best] < 0 ? -1.0 : 1.0;
      for (int64_t j = 0; j < n; ++j) uo[r * n + j] = static_cast<T>(sg * v[j * n + best]);
    }
  });
  u.AddBack(ctx);
  l.AddBack(ctx);
}

#define LINALG_GPU_ENTRY(Name, op_name, body)                                                            \
  void Name(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,                    \
            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                         \
    (void)p;                                                                                             \
    WEFT_GPU_F32_F64_SWITCH(in[0].dtype, op_name, T, body)                                                  \
  }

LINALG_GPU_ENTRY(PotrfGpu, "_linalg_potrf", if (req[0] != OpReq::kNull) PotrfT<T>(ctx, p, in[0], req[0], out[0]);)
LINALG_GPU_ENTRY(PotriGpu, "_linalg_potri", if (req[0] != OpReq::kNull) PotriT<T>(ctx, p, in[0], req[0], out[0]);)
LINALG_GPU_ENTRY(InverseGpu, "_linalg_inverse", if (req[0] != OpReq::kNull) InverseT<T>(ctx, in[0], req[0], out[0]);)
LINALG_GPU_ENTRY(DetGpu, "_linalg_det", DetT<T>(0, ctx, in[0], req, out);)
LINALG_GPU_ENTRY(SlogdetGpu, "_linalg_slogdet", DetT<T>(1, ctx, in[0], req, out);)
LINALG_GPU_ENTRY(BackwardDetGpu, "_backward_linalg_det",
                 if (req[0] != OpReq::kNull) BackwardDetT<T>(0, ctx, in, req[0], out[0]);)
LINALG_GPU_ENTRY(BackwardSlogdetGpu, "_backward_linalg_slogdet",
                 if (req[0] != OpReq::kNull) BackwardDetT<T>(1, ctx, in, req[0], out[0]);)
LINALG_GPU_ENTRY(GelqfGpu, "_linalg_gelqf", GelqfT<T>(ctx, in[0], req, out);)
LINALG_GPU_ENTRY(SyevdGpu, "_linalg_syevd", SyevdT<T>(ctx, in[0], req, out);)

}  // namespace

WEFT_GPU_KERNEL_EXPORT(LinalgPotrfGpu, PotrfGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgPotriGpu, PotriGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgInverseGpu, InverseGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgDetGpu, DetGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgSlogdetGpu, SlogdetGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgBackwardDetGpu, BackwardDetGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgBackwardSlogdetGpu, BackwardSlogdetGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgGelqfGpu, GelqfGpu)
WEFT_GPU_KERNEL_EXPORT(LinalgSyevdGpu, SyevdGpu)

}  // namespace cuda
}  // namespace weft
