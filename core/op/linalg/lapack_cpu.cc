// LAPACK through its Fortran entry points, and BLAS-3 through CBLAS, from the
// OpenBLAS the project links (Note [Which BLAS] in core/base/cpu_blas.h:
// the wheel's or the system's; OpenBLAS ships LAPACK in the same library, and
// cpu_blas.h maps these names onto the wheel's scipy_-prefixed symbols).
//
// Note [Row-major LAPACK]
// Debian's OpenBLAS packages install cblas.h but no lapacke.h (that is
// liblapacke-dev, not a dependency), so the Fortran prototypes are declared
// here, the usual portable way: every argument by pointer, LAPACK integers as
// `int` (the LP64 OpenBLAS builds), and gfortran's hidden lengths of the
// character arguments passed at the end (routines written in C ignore them).
// LAPACK is column-major: a row-major n x n buffer is the transposed matrix,
// so the callers (factor.cc) swap 'U'/'L' and read results transposed.
#include "core/op/linalg/lapack_cpu.h"

#include "core/base/cpu_blas.h"

#include <cstddef>
#include <vector>

extern "C" {
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void spotri_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetri_(const int* n, float* a, const int* lda, const int* ipiv, float* work, const int* lwork, int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work, const int* lwork, int* info);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork,
             int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t, size_t);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, size_t, size_t);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, size_t);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s, float* u,
             const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork, int* iwork, int* info, size_t);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
             const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info,
             size_t);
void sgeev_(const char* jobvl, const char* jobvr, const int* n, float* a, const int* lda, float* wr, float* wi,
            float* vl, const int* ldvl, float* vr, const int* ldvr, float* work, const int* lwork, int* info, size_t,
            size_t);
void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* wr, double* wi,
            double* vl, const int* ldvl, double* vr, const int* ldvr, double* work, const int* lwork, int* info,
            size_t, size_t);
}

namespace weft {
namespace lapack {
namespace {

int I(int64_t v) { return static_cast<int>(v); }

template <typename T>
struct Fn;
template <>
struct Fn<float> {
  static constexpr auto potrf = spotrf_;
  static constexpr auto potri = spotri_;
  static constexpr auto getrf = sgetrf_;
  static constexpr auto getri = sgetri_;
  static constexpr auto geqrf = sgeqrf_;
  static constexpr auto orgqr = sorgqr_;
  static constexpr auto syevd = ssyevd_;
  static constexpr auto getrs = sgetrs_;
  static constexpr auto gesdd = sgesdd_;
  static constexpr auto geev = sgeev_;
};
template <>
struct Fn<double> {
  static constexpr auto potrf = dpotrf_;
  static constexpr auto potri = dpotri_;
  static constexpr auto getrf = dgetrf_;
  static constexpr auto getri = dgetri_;
  static constexpr auto geqrf = dgeqrf_;
  static constexpr auto orgqr = dorgqr_;
  static constexpr auto syevd = dsyevd_;
  static constexpr auto getrs = dgetrs_;
  static constexpr auto gesdd = dgesdd_;
  static constexpr auto geev = dgeev_;
};

template <typename T>
int PotrfT(char uplo, int64_t n, T* a, int64_t lda) {
  int nn = I(n), ld = I(lda), info = 0;
  Fn<T>::potrf(&uplo, &nn, a, &ld, &info, 1);
  return info;
}
template <typename T>
int PotriT(char uplo, int64_t n, T* a, int64_t lda) {
  int nn = I(n), ld = I(lda), info = 0;
  Fn<T>::potri(&uplo, &nn, a, &ld, &info, 1);
  return info;
}
template <typename T>
int GetrfT(int64_t n, T* a, int64_t lda, int* ipiv) {
  int nn = I(n), ld = I(lda), info = 0;
  Fn<T>::getrf(&nn, &nn, a, &ld, ipiv, &info);
  return info;
}
template <typename T>
int GetriT(int64_t n, T* a, int64_t lda, const int* ipiv) {
  int nn = I(n), ld = I(lda), info = 0, lwork = -1;
  T q = 0;
  Fn<T>::getri(&nn, a, &ld, ipiv, &q, &lwork, &info);
  lwork = static_cast<int>(q) > 1 ? static_cast<int>(q) : 1;
  std::vector<T> work(static_cast<size_t>(lwork));
  Fn<T>::getri(&nn, a, &ld, ipiv, work.data(), &lwork, &info);
  return info;
}
template <typename T>
int GeqrfOrgqrT(int64_t m, int64_t n, T* a, int64_t lda, T* r, int64_t ldr) {
  int mm = I(m), nn = I(n), ld = I(lda), info = 0, lwork = -1;
  std::vector<T> tau(static_cast<size_t>(n));
  T q1 = 0, q2 = 0;
  Fn<T>::geqrf(&mm, &nn, a, &ld, tau.data(), &q1, &lwork, &info);
  Fn<T>::orgqr(&mm, &nn, &nn, a, &ld, tau.data(), &q2, &lwork, &info);
  lwork = static_cast<int>(q1 > q2 ? q1 : q2);
  if (lwork < 1) lwork = 1;
  std::vector<T> work(static_cast<size_t>(lwork));
  Fn<T>::geqrf(&mm, &nn, a, &ld, tau.data(), work.data(), &lwork, &info);
  if (info != 0) return info;
  for (int64_t j = 0; j < n; ++j)  // R: the upper triangle, column j of n
    for (int64_t i = 0; i < n; ++i) r[i + j * ldr] = i <= j ? a[i + j * lda] : T(0);
  Fn<T>::orgqr(&mm, &nn, &nn, a, &ld, tau.data(), work.data(), &lwork, &info);
  return info;
}
template <typename T>
int SyevdT(char uplo, int64_t n, T* a, int64_t lda, T* w) {
  const char jobz = 'V';
  int nn = I(n), ld = I(lda), info = 0, lwork = -1, liwork = -1, iq = 0;
  T q = 0;
  Fn<T>::syevd(&jobz, &uplo, &nn, a, &ld, w, &q, &lwork, &iq, &liwork, &info, 1, 1);
  lwork = static_cast<int>(q) > 1 ? static_cast<int>(q) : 1;
  liwork = iq > 1 ? iq : 1;
  std::vector<T> work(static_cast<size_t>(lwork));
  std::vector<int> iwork(static_cast<size_t>(liwork));
  Fn<T>::syevd(&jobz, &uplo, &nn, a, &ld, w, work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
  return info;
}

template <typename T>
int GetrsT(bool trans, int64_t n, int64_t nrhs, const T* lu, int64_t lda, const int* ipiv, T* b, int64_t ldb) {
  const char t = trans ? 'T' : 'N';
  int nn = I(n), nr = I(nrhs), ld = I(lda), ldb_ = I(ldb), info = 0;
  Fn<T>::getrs(&t, &nn, &nr, lu, &ld, ipiv, b, &ldb_, &info, 1);
  return info;
}
template <typename T>
int GesddT(int64_t m, int64_t n, T* a, int64_t lda, T* s, T* u, int64_t ldu, T* vt, int64_t ldvt) {
  const char jobz = 'S';
  int mm = I(m), nn = I(n), ld = I(lda), ldu_ = I(ldu), ldvt_ = I(ldvt), info = 0, lwork = -1;
  std::vector<int> iwork(static_cast<size_t>(8 * (m < n ? m : n) + 1));
  T q = 0;
  Fn<T>::gesdd(&jobz, &mm, &nn, a, &ld, s, u, &ldu_, vt, &ldvt_, &q, &lwork, iwork.data(), &info, 1);
  lwork = static_cast<int>(q) > 1 ? static_cast<int>(q) : 1;
  std::vector<T> work(static_cast<size_t>(lwork));
  Fn<T>::gesdd(&jobz, &mm, &nn, a, &ld, s, u, &ldu_, vt, &ldvt_, work.data(), &lwork, iwork.data(), &info, 1);
  return info;
}
template <typename T>
int GeevT(int64_t n, T* a, int64_t lda, T* wr, T* wi, T* vl) {
  const char jl = vl != nullptr ? 'V' : 'N', jr = 'N';
  int nn = I(n), ld = I(lda), ldv = nn > 1 ? nn : 1, info = 0, lwork = -1;
  T q = 0, dummy = 0;
  T* l = vl != nullptr ? vl : &dummy;
  Fn<T>::geev(&jl, &jr, &nn, a, &ld, wr, wi, l, &ldv, &dummy, &ldv, &q, &lwork, &info, 1, 1);
  lwork = static_cast<int>(q) > 1 ? static_cast<int>(q) : 1;
  std::vector<T> work(static_cast<size_t>(lwork));
  Fn<T>::geev(&jl, &jr, &nn, a, &ld, wr, wi, l, &ldv, &dummy, &ldv, work.data(), &lwork, &info, 1, 1);
  return info;
}

CBLAS_TRANSPOSE Tr(bool t) { return t ? CblasTrans : CblasNoTrans; }
CBLAS_SIDE Side(bool right) { return right ? CblasRight : CblasLeft; }
CBLAS_UPLO Uplo(bool lower) { return lower ? CblasLower : CblasUpper; }
blasint B(int64_t v) { return static_cast<blasint>(v); }

}  // namespace

int Potrf(char u, int64_t n, float* a, int64_t lda) { return PotrfT(u, n, a, lda); }
int Potrf(char u, int64_t n, double* a, int64_t lda) { return PotrfT(u, n, a, lda); }
int Potri(char u, int64_t n, float* a, int64_t lda) { return PotriT(u, n, a, lda); }
int Potri(char u, int64_t n, double* a, int64_t lda) { return PotriT(u, n, a, lda); }
int Getrf(int64_t n, float* a, int64_t lda, int* p) { return GetrfT(n, a, lda, p); }
int Getrf(int64_t n, double* a, int64_t lda, int* p) { return GetrfT(n, a, lda, p); }
int Getri(int64_t n, float* a, int64_t lda, const int* p) { return GetriT(n, a, lda, p); }
int Getri(int64_t n, double* a, int64_t lda, const int* p) { return GetriT(n, a, lda, p); }
int GeqrfOrgqr(int64_t m, int64_t n, float* a, int64_t lda, float* r, int64_t ldr) {
  return GeqrfOrgqrT(m, n, a, lda, r, ldr);
}
int GeqrfOrgqr(int64_t m, int64_t n, double* a, int64_t lda, double* r, int64_t ldr) {
  return GeqrfOrgqrT(m, n, a, lda, r, ldr);
}
int Syevd(char u, int64_t n, float* a, int64_t lda, float* w) { return SyevdT(u, n, a, lda, w); }
int Syevd(char u, int64_t n, double* a, int64_t lda, double* w) { return SyevdT(u, n, a, lda, w); }
int Getrs(bool t, int64_t n, int64_t r, const float* lu, int64_t lda, const int* p, float* b, int64_t ldb) {
  return GetrsT(t, n, r, lu, lda, p, b, ldb);
}
int Getrs(bool t, int64_t n, int64_t r, const double* lu, int64_t lda, const int* p, double* b, int64_t ldb) {
  return GetrsT(t, n, r, lu, lda, p, b, ldb);
}
int Gesdd(int64_t m, int64_t n, float* a, int64_t lda, float* s, float* u, int64_t ldu, float* vt, int64_t ldvt) {
  return GesddT(m, n, a, lda, s, u, ldu, vt, ldvt);
}
int Gesdd(int64_t m, int64_t n, double* a, int64_t lda, double* s, double* u, int64_t ldu, double* vt,
          int64_t ldvt) {
  return GesddT(m, n, a, lda, s, u, ldu, vt, ldvt);
}
int Geev(int64_t n, float* a, int64_t lda, float* wr, float* wi, float* vl) { return GeevT(n, a, lda, wr, wi, vl); }
int Geev(int64_t n, double* a, int64_t lda, double* wr, double* wi, double* vl) {
  return GeevT(n, a, lda, wr, wi, vl);
}

void Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, Tr(ta), Tr(tb), B(m), B(n), B(k), alpha, a, B(lda), b, B(ldb), beta, c, B(ldc));
}
void Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, Tr(ta), Tr(tb), B(m), B(n), B(k), alpha, a, B(lda), b, B(ldb), beta, c, B(ldc));
}
void Trmm(bool right, bool lower, bool trans, int64_t m, int64_t n, float alpha, const float* a, int64_t lda,
          float* b, int64_t ldb) {
  cblas_strmm(CblasRowMajor, Side(right), Uplo(lower), Tr(trans), CblasNonUnit, B(m), B(n), alpha, a, B(lda), b,
              B(ldb));
}
void Trmm(bool right, bool lower, bool trans, int64_t m, int64_t n, double alpha, const double* a, int64_t lda,
          double* b, int64_t ldb) {
  cblas_dtrmm(CblasRowMajor, Side(right), Uplo(lower), Tr(trans), CblasNonUnit, B(m), B(n), alpha, a, B(lda), b,
              B(ldb));
}
void Trsm(bool right, bool lower, bool trans, int64_t m, int64_t n, float alpha, const float* a, int64_t lda,
          float* b, int64_t ldb) {
  cblas_strsm(CblasRowMajor, Side(right), Uplo(lower), Tr(trans), CblasNonUnit, B(m), B(n), alpha, a, B(lda), b,
              B(ldb));
}
void Trsm(bool right, bool lower, bool trans, int64_t m, int64_t n, double alpha, const double* a, int64_t lda,
          double* b, int64_t ldb) {
  cblas_dtrsm(CblasRowMajor, Side(right), Uplo(lower), Tr(trans), CblasNonUnit, B(m), B(n), alpha, a, B(lda), b,
              B(ldb));
}
void Syrk(bool trans, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, float* c, int64_t ldc) {
  cblas_ssyrk(CblasRowMajor, CblasLower, Tr(trans), B(n), B(k), alpha, a, B(lda), 0.0f, c, B(ldc));
}
void Syrk(bool trans, int64_t n, int64_t k, double alpha, const double* a, int64_t lda, double* c, int64_t ldc) {
  cblas_dsyrk(CblasRowMajor, CblasLower, Tr(trans), B(n), B(k), alpha, a, B(lda), 0.0, c, B(ldc));
}

}  // namespace lapack
}  // namespace weft
