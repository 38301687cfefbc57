// A cache-blocked GEMM in plain C++ for builds without BLAS (WEFT_PORTABLE:
// the dependency-free predictor, cmake/predict.cmake). The normal build calls
// OpenBLAS and compiles this file only so its test can compare the two.
//
// Same contract as cblas_?gemm with CblasRowMajor:
//   C[m x n] = alpha * op(A)[m x k] * op(B)[k x n] + beta * C
// where op(A) is A (m x k, leading dimension lda) or, with trans_a, the
// transpose of A (k x m). beta == 0 overwrites C without reading it.
#pragma once
#include <cstdint>

namespace weft {
namespace portable_gemm {

void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

}  // namespace portable_gemm
}  // namespace weft
