#include "core/op/dense/gemm_cpu.h"

#if WEFT_PORTABLE  // the dependency-free build has no BLAS (cmake/predict.cmake)
#include "core/op/dense/portable_gemm.h"
#else
#include "core/base/cpu_blas.h"
#endif

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "core/base/error.h"

namespace weft {
namespace nn_cpu {
namespace {

#if !WEFT_PORTABLE
blasint B(int64_t v) { return static_cast<blasint>(v); }
#endif

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

struct Scratch {
  std::unique_ptr<void, FreeDeleter> data;
  size_t size = 0;
};

}  // namespace

void Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
          int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
#if WEFT_PORTABLE
  portable_gemm::Gemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
#else
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, B(m), B(n), B(k), 1.0f,
              a, B(lda), b, B(ldb), beta, c, B(ldc));
#endif
}

void Gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b,
          int64_t ldb, double beta, double* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
#if WEFT_PORTABLE
  portable_gemm::Gemm(ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
#else
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, B(m), B(n), B(k), 1.0,
              a, B(lda), b, B(ldb), beta, c, B(ldc));
#endif
}

void* ThreadScratch(int slot, size_t bytes) {
  thread_local Scratch slots[8];
  WEFT_CHECK(slot >= 0 && slot < 8, kInternal) << "ThreadScratch: bad slot " << slot;
  Scratch& s = slots[slot];
  if (s.size < bytes) {
    // Allocate before freeing: when the allocation fails the old buffer and
    // its size stay consistent, so a later call never writes through NULL.
    WEFT_CHECK(bytes <= SIZE_MAX - 63, kOutOfMemory) << "kernel scratch of " << bytes << " bytes is too large";
    size_t rounded = (bytes + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    WEFT_CHECK(p != nullptr, kOutOfMemory) << "out of memory allocating " << rounded << " bytes of kernel scratch";
    s.data.reset(p);
    s.size = rounded;
  }
  return s.data.get();
}

}  // namespace nn_cpu
}  // namespace weft
