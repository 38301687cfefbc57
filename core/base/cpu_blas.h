// The CPU BLAS/LAPACK the library links, under the standard names.
//
// Note [Which BLAS]
// The build links the `scipy-openblas32` wheel's OpenBLAS (0.3.3x,
// DYNAMIC_ARCH: it picks its kernels for the CPU it runs on, including the
// ones Debian's 0.3.21 does not know and runs as "Prescott") when it is
// installed, else the system OpenBLAS (CMakeLists.txt, docs/ARCHITECTURE.md
// "BLAS"). The wheel's symbols carry a `scipy_` prefix so that it never
// clashes with another OpenBLAS in the process (NumPy's, the system's); the
// build defines WEFT_BLAS_SYMBOL_PREFIX_SCIPY for it and this header maps the
// names the kernels call (cblas_sgemm, sgetrf_, ...) onto the prefixed ones,
// so call sites stay plain CBLAS / Fortran LAPACK. Include it instead of
// <cblas.h>; declare LAPACK prototypes after including it.
#ifndef WEFT_CORE_OP_COMMON_CPU_BLAS_H_
#define WEFT_CORE_OP_COMMON_CPU_BLAS_H_

#if defined(WEFT_CBLAS_HEADER)  // the wheel's, by path: the system cblas.h stays on the include path
#include WEFT_CBLAS_HEADER
#else
#include <cblas.h>
#endif

#if defined(WEFT_BLAS_SYMBOL_PREFIX_SCIPY)
#define cblas_sgemm scipy_cblas_sgemm
#define cblas_dgemm scipy_cblas_dgemm
#define cblas_strmm scipy_cblas_strmm
#define cblas_dtrmm scipy_cblas_dtrmm
#define cblas_strsm scipy_cblas_strsm
#define cblas_dtrsm scipy_cblas_dtrsm
#define cblas_ssyrk scipy_cblas_ssyrk
#define cblas_dsyrk scipy_cblas_dsyrk
#define spotrf_ scipy_spotrf_
#define dpotrf_ scipy_dpotrf_
#define spotri_ scipy_spotri_
#define dpotri_ scipy_dpotri_
#define sgetrf_ scipy_sgetrf_
#define dgetrf_ scipy_dgetrf_
#define sgetri_ scipy_sgetri_
#define dgetri_ scipy_dgetri_
#define sgeqrf_ scipy_sgeqrf_
#define dgeqrf_ scipy_dgeqrf_
#define sorgqr_ scipy_sorgqr_
#define dorgqr_ scipy_dorgqr_
#define ssyevd_ scipy_ssyevd_
#define dsyevd_ scipy_dsyevd_
#define sgetrs_ scipy_sgetrs_
#define dgetrs_ scipy_dgetrs_
#define sgesdd_ scipy_sgesdd_
#define dgesdd_ scipy_dgesdd_
#define sgeev_ scipy_sgeev_
#define dgeev_ scipy_dgeev_
#endif

namespace weft {
namespace cpu_blas {

// What the linked BLAS says about itself (weft_blas_info in the C ABI).
struct Info {
  const char* name;     // "OpenBLAS"
  const char* config;   // openblas_get_config(): version and build options
  const char* kernel;   // openblas_get_corename(): the kernel family in use, e.g. "Haswell", "SkylakeX"
  const char* library;  // path of the shared library the symbols come from
  const char* threading;  // "openmp-callback", "openmp" or "pthreads" (Note [BLAS threads] in cpu_blas.cc)
  int threads;          // openblas_get_num_threads()
};
// Static strings; `threads` as of the call.
Info GetInfo();

}  // namespace cpu_blas
}  // namespace weft

#endif  // WEFT_CORE_OP_COMMON_CPU_BLAS_H_
