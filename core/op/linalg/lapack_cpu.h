// The LAPACK and BLAS routines the linalg family's CPU kernels call, typed for
// float and double. All take column-major matrices (LAPACK's convention); the
// kernels pass row-major buffers as the transposed matrices (Note [Row-major
// LAPACK] in lapack_cpu.cc). Only the linalg family includes this header; the
// dependency-free predictor leaves the family out (cmake/predict.cmake).
#pragma once
#include <cstdint>

namespace weft {
namespace lapack {

// Each returns LAPACK's info (0: success, > 0: the matrix is singular / not
// positive definite at that index, < 0: an argument error).
int Potrf(char uplo, int64_t n, float* a, int64_t lda);
int Potrf(char uplo, int64_t n, double* a, int64_t lda);
int Potri(char uplo, int64_t n, float* a, int64_t lda);
int Potri(char uplo, int64_t n, double* a, int64_t lda);
// LU with partial pivoting; ipiv has n entries (1-based, as LAPACK).
int Getrf(int64_t n, float* a, int64_t lda, int* ipiv);
int Getrf(int64_t n, double* a, int64_t lda, int* ipiv);
// Inverse from Getrf's factors.
int Getri(int64_t n, float* a, int64_t lda, const int* ipiv);
int Getri(int64_t n, double* a, int64_t lda, const int* ipiv);
// QR of an m x n (m >= n) matrix: a holds R and the reflectors; then Q (m x n) in a.
int GeqrfOrgqr(int64_t m, int64_t n, float* a, int64_t lda, float* r, int64_t ldr);
int GeqrfOrgqr(int64_t m, int64_t n, double* a, int64_t lda, double* r, int64_t ldr);
// Eigenvalues (ascending, in w) and eigenvectors (columns of a) of a symmetric matrix.
int Syevd(char uplo, int64_t n, float* a, int64_t lda, float* w);
int Syevd(char uplo, int64_t n, double* a, int64_t lda, double* w);
// Solves op(A) X = B (B n x nrhs, column-major, ldb) from Getrf's factors of A;
// trans: op(A) = A^T.
int Getrs(bool trans, int64_t n, int64_t nrhs, const float* lu, int64_t lda, const int* ipiv, float* b, int64_t ldb);
int Getrs(bool trans, int64_t n, int64_t nrhs, const double* lu, int64_t lda, const int* ipiv, double* b,
          int64_t ldb);
// Thin SVD of the m x n matrix a (destroyed), k = min(m, n): a = u diag(s) vt,
// u m x k (ldu), vt k x n (ldvt), s descending (divide and conquer, gesdd).
int Gesdd(int64_t m, int64_t n, float* a, int64_t lda, float* s, float* u, int64_t ldu, float* vt, int64_t ldvt);
int Gesdd(int64_t m, int64_t n, double* a, int64_t lda, double* s, double* u, int64_t ldu, double* vt,
          int64_t ldvt);
// Eigenvalues (wr + i wi) and, when vl is not null, the left eigenvectors
// (columns of vl, ldvl = n) of the general n x n matrix a (destroyed).
int Geev(int64_t n, float* a, int64_t lda, float* wr, float* wi, float* vl);
int Geev(int64_t n, double* a, int64_t lda, double* wr, double* wi, double* vl);

// Row-major BLAS-3 (CBLAS): C = alpha op(A) op(B) + beta C.
void Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);
// B = alpha op(A) B (left) or alpha B op(A) (right), A triangular, B m x n.
void Trmm(bool right, bool lower, bool trans, int64_t m, int64_t n, float alpha, const float* a, int64_t lda,
          float* b, int64_t ldb);
void Trmm(bool right, bool lower, bool trans, int64_t m, int64_t n, double alpha, const double* a, int64_t lda,
          double* b, int64_t ldb);
// Solves op(A) X = alpha B (left) or X op(A) = alpha B (right) in place of B.
void Trsm(bool right, bool lower, bool trans, int64_t m, int64_t n, float alpha, const float* a, int64_t lda,
          float* b, int64_t ldb);
void Trsm(bool right, bool lower, bool trans, int64_t m, int64_t n, double alpha, const double* a, int64_t lda,
          double* b, int64_t ldb);
// C (n x n, lower triangle) = alpha op(A) op(A)^T; op(A) is n x k.
void Syrk(bool trans, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, float* c, int64_t ldc);
void Syrk(bool trans, int64_t n, int64_t k, double alpha, const double* a, int64_t lda, double* c, int64_t ldc);

}  // namespace lapack
}  // namespace weft
