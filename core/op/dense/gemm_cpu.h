// Row-major GEMM for the neural-network kernels: C (beta)= op(A) * op(B) with
// explicit leading dimensions (so groups and images can be addressed inside
// larger buffers). OpenBLAS sgemm/dgemm.
#pragma once
#include <cstddef>
#include <cstdint>

namespace weft {
namespace nn_cpu {

void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
          int64_t ldb, float beta, float* c, int64_t ldc);
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

// A grow-only scratch buffer owned by the calling thread (engine workers are
// long-lived, so the unfolded-input buffers of im2col are allocated once).
// slot separates buffers used at the same time by one kernel.
void* ThreadScratch(int slot, size_t bytes);

}  // namespace nn_cpu
}  // namespace weft
