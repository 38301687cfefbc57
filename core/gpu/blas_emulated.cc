// Note [Two GPU backends] (device_api.h): GPU GEMM emulated with CBLAS.
#include "core/op/common/cpu_blas.h"

#include "core/gpu/blas.h"

namespace weft {
namespace gpu {

namespace {
CBLAS_TRANSPOSE T(bool t) { return t ? CblasTrans : CblasNoTrans; }
}  // namespace

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
