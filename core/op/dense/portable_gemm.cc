#include "core/op/dense/portable_gemm.h"

#include <algorithm>
#include <vector>

#include "core/op/op_util.h"

namespace weft {
namespace portable_gemm {
namespace {

// Note [Portable GEMM blocking]
// The Goto/BLIS scheme in plain loops: op(B) is packed in KC x NR panels and
// op(A) in MR x KC panels, so the micro-kernel streams both from contiguous
// memory while an MR x NR tile of C accumulates in registers (16 floats per
// row of a panel: four 128-bit vectors, or two 256-bit ones; the loops have
// constant trip counts so the compiler unrolls and vectorises them on any
// target). KC keeps an A panel and a B panel in L1, MC x KC of A in L2, and
// KC x NC of B in the last-level cache. Edge tiles are packed with zeros and
// only their valid part is written back. Threads split C by column blocks
// (or row blocks when C is tall and narrow), each with its own packing
// buffers.
constexpr int64_t kMR = 4;
template <typename T>
constexpr int64_t kNR = 64 / sizeof(T);  // one cache line of B per k step
constexpr int64_t kKC = 256;
constexpr int64_t kMC = 128;
constexpr int64_t kNC = 2048;

template <typename T>
struct Operand {
  const T* p;
  int64_t ld;
  bool trans;
  // Element (row, col) of op(X).
  T at(int64_t r, int64_t c) const { return trans ? p[c * ld + r] : p[r * ld + c]; }
  // The operand seen from (row, col) on.
  Operand shifted(int64_t r, int64_t c) const { return {trans ? p + c * ld + r : p + r * ld + c, ld, trans}; }
};

// op(A)[0:mc, 0:kc] as MR-row panels: for each k, MR consecutive values.
template <typename T>
void PackA(const Operand<T>& a, int64_t mc, int64_t kc, T* dst) {
  for (int64_t i = 0; i < mc; i += kMR) {
    const int64_t rows = std::min(kMR, mc - i);
    for (int64_t p = 0; p < kc; ++p, dst += kMR) {
      for (int64_t r = 0; r < rows; ++r) dst[r] = a.at(i + r, p);
      for (int64_t r = rows; r < kMR; ++r) dst[r] = T(0);
    }
  }
}

// op(B)[0:kc, 0:nc] as NR-column panels: for each k, NR consecutive values.
template <typename T>
void PackB(const Operand<T>& b, int64_t kc, int64_t nc, T* dst) {
  constexpr int64_t NR = kNR<T>;
  for (int64_t j = 0; j < nc; j += NR, dst += NR * kc) {
    const int64_t cols = std::min(NR, nc - j);
    if (!b.trans) {
      for (int64_t p = 0; p < kc; ++p) {
        const T* src = b.p + p * b.ld + j;
        T* d = dst + p * NR;
        for (int64_t c = 0; c < cols; ++c) d[c] = src[c];
        for (int64_t c = cols; c < NR; ++c) d[c] = T(0);
      }
    } else {  // rows of the stored B are columns of op(B): read each contiguously
      for (int64_t c = 0; c < NR; ++c) {
        if (c < cols) {
          const T* src = b.p + (j + c) * b.ld;
          for (int64_t p = 0; p < kc; ++p) dst[p * NR + c] = src[p];
        } else {
          for (int64_t p = 0; p < kc; ++p) dst[p * NR + c] = T(0);
        }
      }
    }
  }
}

// acc = (MR x kc panel of A) * (kc x NR panel of B).
// The loops over the tile are unrolled completely (the pragma is a hint that
// other compilers ignore), so every acc[r][j] has a constant index, stays in
// a register and the compiler's straight-line vectoriser packs them.
template <typename T>
inline void MicroKernel(int64_t kc, const T* __restrict ap, const T* __restrict bp, T* __restrict out) {
  constexpr int NR = static_cast<int>(kNR<T>);
  T acc[kMR][NR];
#pragma GCC unroll 4
  for (int r = 0; r < kMR; ++r)
#pragma GCC unroll 16
    for (int j = 0; j < NR; ++j) acc[r][j] = T(0);
  for (int64_t p = 0; p < kc; ++p) {
    const T* b = bp + p * NR;
    const T* a = ap + p * kMR;
#pragma GCC unroll 4
    for (int r = 0; r < kMR; ++r) {
      const T av = a[r];
#pragma GCC unroll 16
      for (int j = 0; j < NR; ++j) acc[r][j] += av * b[j];
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < kMR; ++r)
#pragma GCC unroll 16
    for (int j = 0; j < NR; ++j) out[r * NR + j] = acc[r][j];
}

// One thread's share: the whole blocked product for an m x n piece of C.
template <typename T>
void GemmSerial(const Operand<T>& a, const Operand<T>& b, int64_t m, int64_t n, int64_t k, T alpha, T beta, T* c,
                int64_t ldc) {
  constexpr int64_t NR = kNR<T>;
  thread_local std::vector<T> apack, bpack;
  apack.resize(static_cast<size_t>(kMC * kKC));
  bpack.resize(static_cast<size_t>(kKC * ((std::min(kNC, n) + NR - 1) / NR * NR)));
  T acc[kMR * NR];
  for (int64_t jc = 0; jc < n; jc += kNC) {
    const int64_t nc = std::min(kNC, n - jc);
    for (int64_t pc = 0; pc < k; pc += kKC) {
      const int64_t kc = std::min(kKC, k - pc);
      PackB(b.shifted(pc, jc), kc, nc, bpack.data());
      // The first k block applies beta; later ones add to what it wrote.
      const T beta_here = pc == 0 ? beta : T(1);
      for (int64_t ic = 0; ic < m; ic += kMC) {
        const int64_t mc = std::min(kMC, m - ic);
        PackA(a.shifted(ic, pc), mc, kc, apack.data());
        for (int64_t jr = 0; jr < nc; jr += NR) {
          const int64_t nr = std::min(NR, nc - jr);
          for (int64_t ir = 0; ir < mc; ir += kMR) {
            const int64_t mr = std::min(kMR, mc - ir);
            MicroKernel<T>(kc, apack.data() + ir * kc, bpack.data() + jr * kc, acc);
            T* ct = c + (ic + ir) * ldc + jc + jr;
            for (int64_t r = 0; r < mr; ++r) {
              T* row = ct + r * ldc;
              if (beta_here == T(0)) {
                for (int64_t j = 0; j < nr; ++j) row[j] = alpha * acc[r * NR + j];
              } else {
                for (int64_t j = 0; j < nr; ++j) row[j] = alpha * acc[r * NR + j] + beta_here * row[j];
              }
            }
          }
        }
      }
    }
  }
}

template <typename T>
void GemmT(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* ap, int64_t lda, const T* bp,
           int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {  // an empty sum: C = beta * C
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = beta == T(0) ? T(0) : beta * c[i * ldc + j];
    return;
  }
  const Operand<T> a{ap, lda, ta}, b{bp, ldb, tb};
  // Split the wider side of C into blocks the threads share out.
  const bool by_cols = n >= m;
  const int64_t unit = by_cols ? 4 * kNR<T> : 4 * kMR;
  const int64_t extent = by_cols ? n : m;
  const int64_t units = (extent + unit - 1) / unit;
  const int64_t cost = unit * (by_cols ? m : n) * k;
  ParallelFor(units, cost, [&](int64_t begin, int64_t end) {
    const int64_t lo = begin * unit, hi = std::min(extent, end * unit);
    if (by_cols)
      GemmSerial(a, b.shifted(0, lo), m, hi - lo, k, alpha, beta, c + lo, ldc);
    else
      GemmSerial(a.shifted(lo, 0), b, hi - lo, n, k, alpha, beta, c + lo * ldc, ldc);
  });
}

}  // namespace

void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  GemmT(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  GemmT(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace portable_gemm
}  // namespace weft
