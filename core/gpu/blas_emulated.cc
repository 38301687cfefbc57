// Note [Two GPU backends] (device_api.h): GPU GEMM emulated with CBLAS.
#include "core/base/cpu_blas.h"

#include "core/gpu/blas.h"

#include <vector>

namespace weft {
namespace gpu {

namespace {
CBLAS_TRANSPOSE T(bool t) { return t ? CblasTrans : CblasNoTrans; }

// The float values of a rows x cols matrix of row stride ld (its last row
// only up to cols, so nothing past the operand is read).
template <typename H>
std::vector<float> Widen(const H* p, int rows, int cols, int ld) {
  std::vector<float> f(rows == 0 ? 0 : static_cast<size_t>(rows - 1) * ld + cols);
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < cols; ++j) f[static_cast<size_t>(r) * ld + j] = static_cast<float>(p[static_cast<size_t>(r) * ld + j]);
  return f;
}

// What cublasGemmEx computes for 16-bit operands with a float compute type:
// the float product of the operands, C read and written in 16 bits.
template <typename H>
void Gemm16(bool ta, bool tb, int m, int n, int k, float alpha, const H* a, int lda, const H* b, int ldb,
            float beta, H* c, int ldc) {
  const std::vector<float> fa = Widen(a, ta ? k : m, ta ? m : k, lda);
  const std::vector<float> fb = Widen(b, tb ? n : k, tb ? k : n, ldb);
  std::vector<float> fc = beta == 0.0f ? std::vector<float>(m == 0 ? 0 : static_cast<size_t>(m - 1) * ldc + n, 0.0f)
                                       : Widen(c, m, n, ldc);
  cblas_sgemm(CblasRowMajor, T(ta), T(tb), m, n, k, alpha, fa.data(), lda, fb.data(), ldb, beta, fc.data(), ldc);
  for (int r = 0; r < m; ++r)
    for (int j = 0; j < n; ++j) c[static_cast<size_t>(r) * ldc + j] = H(fc[static_cast<size_t>(r) * ldc + j]);
}
}  // namespace

void Gemm(int, Stream, bool ta, bool tb, int m, int n, int k, float alpha, const half_t* a, int lda,
          const half_t* b, int ldb, float beta, half_t* c, int ldc) {
  Gemm16(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void Gemm(int, Stream, bool ta, bool tb, int m, int n, int k, float alpha, const bf16_t* a, int lda,
          const bf16_t* b, int ldb, float beta, bf16_t* c, int ldc) {
  Gemm16(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha,
                        const half_t* a, int lda, int64_t sa, const half_t* b, int ldb, int64_t sb,
                        float beta, half_t* c, int ldc, int64_t sc, int batch) {
  for (int i = 0; i < batch; ++i)
    Gemm(dev, s, ta, tb, m, n, k, alpha, a + i * sa, lda, b + i * sb, ldb, beta, c + i * sc, ldc);
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha,
                        const bf16_t* a, int lda, int64_t sa, const bf16_t* b, int ldb, int64_t sb,
                        float beta, bf16_t* c, int ldc, int64_t sc, int batch) {
  for (int i = 0; i < batch; ++i)
    Gemm(dev, s, ta, tb, m, n, k, alpha, a + i * sa, lda, b + i * sb, ldb, beta, c + i * sc, ldc);
}

void Gemm(int, Stream, bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda,
          const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(CblasRowMajor, T(ta), T(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void Gemm(int, Stream, bool ta, bool tb, int m, int n, int k, double alpha, const double* a,
          int lda, const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(CblasRowMajor, T(ta), T(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha,
                        const float* a, int lda, int64_t sa, const float* b, int ldb, int64_t sb,
                        float beta, float* c, int ldc, int64_t sc, int batch) {
  for (int i = 0; i < batch; ++i)
    Gemm(dev, s, ta, tb, m, n, k, alpha, a + i * sa, lda, b + i * sb, ldb, beta, c + i * sc, ldc);
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, double alpha,
                        const double* a, int lda, int64_t sa, const double* b, int ldb, int64_t sb,
                        double beta, double* c, int ldc, int64_t sc, int batch) {
  for (int i = 0; i < batch; ++i)
    Gemm(dev, s, ta, tb, m, n, k, alpha, a + i * sa, lda, b + i * sb, ldb, beta, c + i * sc, ldc);
}

}  // namespace gpu
}  // namespace weft
