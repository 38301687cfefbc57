// Per-matrix rules of the np.linalg ops (_npi_svd, _npi_solve and their
// backward ops) that the CPU kernels (np_svd.cc, np_solve.cc) and the GPU
// kernels (np_linalg.cu) share: the SVD sign rule, the SVD gradient, and the
// plain solvers the GPU kernels use where the CPU calls LAPACK. All work in
// double on row-major scratch.
//
// Note [SVD signs]
// Singular vectors are defined up to a sign per triplet (u_k, s_k, v_k), and
// LAPACK's gesdd and the GPU's Jacobi sweeps pick different ones. Both devices
// therefore apply one rule after factorizing, as _linalg_syevd does for its
// eigenvectors: the entry of largest magnitude (the first such) of each row
// of V is positive, u_k's sign following. The result is still an SVD
// (A = U diag(s) V), so NumPy's reconstruction identities hold; only the
// element-wise values may differ from NumPy's, which makes no promise either.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace linalg {

// Note [SVD signs]: u (m x k), vt (k x n), row-major, of type T.
template <typename T>
WEFT_HD inline void SvdSignRule(T* u, T* vt, int64_t m, int64_t n, int64_t k) {
  for (int64_t r = 0; r < k; ++r) {
    T* row = vt + r * n;
    int64_t best = 0;
    for (int64_t j = 1; j < n; ++j)
      if (std::fabs(static_cast<double>(row[j])) > std::fabs(static_cast<double>(row[best]))) best = j;
    if (n == 0 || !(row[best] < T(0))) continue;
    for (int64_t j = 0; j < n; ++j) row[j] = -row[j];
    for (int64_t i = 0; i < m; ++i) u[i * k + r] = -u[i * k + r];
  }
}

// One-sided Jacobi SVD (Hestenes) of the r x c matrix w (r >= c, row-major),
// in place: afterwards column j of w is s_j u_j and v (c x c, row-major) holds
// the right singular vectors as columns. Sweeps until every pair of columns is
// orthogonal to rounding, at most 60 times.
WEFT_HD inline void JacobiTall(double* w, double* v, int64_t r, int64_t c) {
  for (int64_t i = 0; i < c * c; ++i) v[i] = (i / c == i % c) ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p + 1 < c; ++p)
      for (int64_t q = p + 1; q < c; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < r; ++i) {
          alpha += w[i * c + p] * w[i * c + p];
          beta += w[i * c + q] * w[i * c + q];
          gamma += w[i * c + p] * w[i * c + q];
        }
        if (gamma == 0 || std::fabs(gamma) <= 1e-15 * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        const double cs = 1 / std::sqrt(1 + t * t), sn = cs * t;
        for (int64_t i = 0; i < r; ++i) {
          const double a = w[i * c + p], b = w[i * c + q];
          w[i * c + p] = cs * a - sn * b;
          w[i * c + q] = sn * a + cs * b;
        }
        for (int64_t i = 0; i < c; ++i) {
          const double a = v[i * c + p], b = v[i * c + q];
          v[i * c + p] = cs * a - sn * b;
          v[i * c + q] = sn * a + cs * b;
        }
      }
    if (!rotated) break;
  }
}

// Thin SVD of a (m x n, row-major) through JacobiTall, k = min(m, n):
// u (m x k), s (k, descending), vt (k x n). Scratch: w (m * n) and v
// (k * k) doubles. A zero singular value leaves its u (or v) column zero.
template <typename T>
WEFT_HD inline void JacobiSvd(const T* a, int64_t m, int64_t n, double* w, double* v, T* u, T* s, T* vt) {
  const bool tall = m >= n;
  const int64_t r = tall ? m : n, c = tall ? n : m;  // factor A (tall) or A^T (wide) as r x c
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double x = static_cast<double>(a[i * n + j]);
      if (tall) w[i * c + j] = x;
      else w[j * c + i] = x;
    }
  JacobiTall(w, v, r, c);
  for (int64_t out = 0; out < c; ++out) {  // selection by descending norm
    int64_t best = -1;
    double bn = -1;
    for (int64_t j = 0; j < c; ++j) {
      if (w[j] != w[j]) continue;  // NaN marks a column already taken (row 0 is reset below)
      double nn = 0;
      for (int64_t i = 0; i < r; ++i) nn += w[i * c + j] * w[i * c + j];
      if (nn > bn) { bn = nn; best = j; }
    }
    if (best < 0) break;
    const double sv = std::sqrt(bn), inv = sv > 0 ? 1 / sv : 0;
    s[out] = static_cast<T>(sv);
    // The r-long column over A's rows is U's column (tall) or V's row (wide);
    // the c-long column of v is the other.
    for (int64_t i = 0; i < r; ++i) {
      const T x = static_cast<T>(w[i * c + best] * inv);
      if (tall) u[i * c + out] = x;
      else vt[out * n + i] = x;
    }
    for (int64_t i = 0; i < c; ++i) {
      const T x = static_cast<T>(v[i * c + best]);
      if (tall) vt[out * n + i] = x;
      else u[i * c + out] = x;
    }
    w[best] = NAN;
  }
  SvdSignRule(u, vt, m, n, c);
}

// The gradient of A = U diag(s) V (thin, k = min(m, n); V holds the right
// singular vectors as rows) from dU (m x k), ds (k), dV (k x n), as PyTorch's
// svd_backward writes it for real matrices:
//   dA = U [ (skew(U^T dU) o S_col + S_row o skew(V dV^T)) / E + diag(ds) ] V
//        + (I - U U^T) dU S^-1 V            (m > k)
//        + U S^-1 (dV - (dV V^T) V)        (n > k)
// with skew(X) = X - X^T and E_ij = s_j^2 - s_i^2 (off the diagonal). Distinct,
// non-zero singular values only (otherwise inf/NaN, as MXNet and NumPy-based
// frameworks give). Scratch: 3 k*k + m*n doubles; out is m x n.
template <typename T>
WEFT_HD inline void SvdBackward(const T* du, const T* ds, const T* dv, const T* u, const T* s, const T* v, int64_t m,
                                int64_t n, double* scratch, T* out) {
  const int64_t k = m < n ? m : n;
  double* J = scratch;          // U^T dU
  double* K = J + k * k;        // V dV^T
  double* M = K + k * k;        // the inner k x k matrix
  double* G = M + k * k;        // dA before the projection terms, m x n
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j) {
      double a = 0, b = 0;
      for (int64_t r = 0; r < m; ++r) a += static_cast<double>(u[r * k + i]) * static_cast<double>(du[r * k + j]);
      for (int64_t c = 0; c < n; ++c) b += static_cast<double>(v[i * n + c]) * static_cast<double>(dv[j * n + c]);
      J[i * k + j] = a;
      K[i * k + j] = b;
    }
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j) {
      const double si = static_cast<double>(s[i]), sj = static_cast<double>(s[j]);
      if (i == j) {
        M[i * k + j] = static_cast<double>(ds[i]);
        continue;
      }
      const double e = sj * sj - si * si;
      M[i * k + j] = ((J[i * k + j] - J[j * k + i]) * sj + si * (K[i * k + j] - K[j * k + i])) / e;
    }
  // G = U M V (+ the projection term of the longer side, applied below).
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      double acc = 0;
      for (int64_t i = 0; i < k; ++i) {
        double mv = 0;
        for (int64_t j = 0; j < k; ++j) mv += M[i * k + j] * static_cast<double>(v[j * n + c]);
        acc += static_cast<double>(u[r * k + i]) * mv;
      }
      G[r * n + c] = acc;
    }
  if (m > k) {  // + (dU S^-1 - U (U^T dU) S^-1) V; U^T dU is J
    for (int64_t r = 0; r < m; ++r)
      for (int64_t j = 0; j < k; ++j) {
        double p = static_cast<double>(du[r * k + j]);
        for (int64_t i = 0; i < k; ++i) p -= static_cast<double>(u[r * k + i]) * J[i * k + j];
        p /= static_cast<double>(s[j]);
        for (int64_t c = 0; c < n; ++c) G[r * n + c] += p * static_cast<double>(v[j * n + c]);
      }
  } else if (n > k) {  // + U S^-1 (dV - (dV V^T) V); dV V^T is K^T
    for (int64_t i = 0; i < k; ++i)
      for (int64_t c = 0; c < n; ++c) {
        double p = static_cast<double>(dv[i * n + c]);
        for (int64_t j = 0; j < k; ++j) p -= K[j * k + i] * static_cast<double>(v[j * n + c]);
        p /= static_cast<double>(s[i]);
        for (int64_t r = 0; r < m; ++r) G[r * n + c] += static_cast<double>(u[r * k + i]) * p;
      }
  }
  for (int64_t i = 0; i < m * n; ++i) out[i] = static_cast<T>(G[i]);
}

// Solves L U X = P B in place of x (n x nrhs, row-major) from LuInPlace's
// factors lu and 1-based pivots (lu_rules.h). A zero pivot gives inf/NaN.
WEFT_HD inline void SolveFromLu(const double* lu, const int32_t* ipiv, int64_t n, int64_t nrhs, double* x) {
  for (int64_t k = 0; k < n; ++k) {
    const int64_t p = static_cast<int64_t>(ipiv[k]) - 1;
    if (p == k) continue;
    for (int64_t c = 0; c < nrhs; ++c) {
      const double t = x[k * nrhs + c];
      x[k * nrhs + c] = x[p * nrhs + c];
      x[p * nrhs + c] = t;
    }
  }
  for (int64_t i = 1; i < n; ++i)
    for (int64_t k = 0; k < i; ++k) {
      const double l = lu[i * n + k];
      for (int64_t c = 0; c < nrhs; ++c) x[i * nrhs + c] -= l * x[k * nrhs + c];
    }
  for (int64_t i = n - 1; i >= 0; --i) {
    for (int64_t k = i + 1; k < n; ++k) {
      const double uu = lu[i * n + k];
      for (int64_t c = 0; c < nrhs; ++c) x[i * nrhs + c] -= uu * x[k * nrhs + c];
    }
    const double d = lu[i * n + i];
    for (int64_t c = 0; c < nrhs; ++c) x[i * nrhs + c] /= d;
  }
}

}  // namespace linalg
}  // namespace weft
