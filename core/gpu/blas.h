// Matrix products on a GPU stream: cuBLAS in the CUDA build, CBLAS on the
// host in the emulated one (Note [Two GPU backends], device_api.h).
// Row-major, like the CPU kernels: C[M,N] = alpha * op(A)[M,K] * op(B)[K,N]
// + beta * C, with lda/ldb/ldc the row strides of A, B, C as stored.
// float16 / bfloat16 products take 16-bit A, B, C (the bits of half_t /
// bf16_t, so the kernels' gpu_half / gpu_bf16 arrays too) and compute in
// float: cublasGemmEx with CUBLAS_COMPUTE_32F, or on the emulation the float
// product of the converted operands rounded back.
#pragma once
#include <cstdint>

#include "core/base/dtype.h"
#include "core/gpu/device_api.h"

namespace weft {
namespace gpu {

void Gemm(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k, float alpha,
          const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
void Gemm(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k, double alpha,
          const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc);
void Gemm(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k, float alpha,
          const half_t* a, int lda, const half_t* b, int ldb, float beta, half_t* c, int ldc);
void Gemm(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k, float alpha,
          const bf16_t* a, int lda, const bf16_t* b, int ldb, float beta, bf16_t* c, int ldc);
// `batch` products; matrix i of A starts at a + i * stride_a (in elements).
void GemmStridedBatched(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k,
                        float alpha, const float* a, int lda, int64_t stride_a, const float* b,
                        int ldb, int64_t stride_b, float beta, float* c, int ldc, int64_t stride_c,
                        int batch);
void GemmStridedBatched(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k,
                        double alpha, const double* a, int lda, int64_t stride_a, const double* b,
                        int ldb, int64_t stride_b, double beta, double* c, int ldc,
                        int64_t stride_c, int batch);
void GemmStridedBatched(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k,
                        float alpha, const half_t* a, int lda, int64_t stride_a, const half_t* b,
                        int ldb, int64_t stride_b, float beta, half_t* c, int ldc, int64_t stride_c,
                        int batch);
void GemmStridedBatched(int dev, Stream s, bool trans_a, bool trans_b, int m, int n, int k,
                        float alpha, const bf16_t* a, int lda, int64_t stride_a, const bf16_t* b,
                        int ldb, int64_t stride_b, float beta, bf16_t* c, int ldc, int64_t stride_c,
                        int batch);

}  // namespace gpu
}  // namespace weft
