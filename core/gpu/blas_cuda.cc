// Note [Two GPU backends] (device_api.h): GPU GEMM through cuBLAS.
//
// cuBLAS is column-major. A row-major C = op(A) op(B) is the column-major
// C^T = op(B)^T op(A)^T, so every call swaps the operands and m/n; the
// leading dimensions are the row strides unchanged.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <vector>

#include "core/base/error.h"
#include "core/gpu/blas.h"

namespace weft {
namespace gpu {

namespace {

void Check(cublasStatus_t st, const char* what) {
  WEFT_CHECK(st == CUBLAS_STATUS_SUCCESS, kEngine) << what << ": cuBLAS status " << static_cast<int>(st);
}

// One handle per (worker thread, device): cuBLAS handles are not meant to be
// shared between threads that use different streams at once.
struct ThreadHandles {
  std::vector<cublasHandle_t> h;
  ~ThreadHandles() {
    for (cublasHandle_t x : h)
      if (x) cublasDestroy(x);
  }
};

cublasHandle_t Handle(int dev, Stream s) {
  thread_local ThreadHandles handles;
  if (static_cast<int>(handles.h.size()) <= dev) handles.h.resize(static_cast<size_t>(dev) + 1, nullptr);
  cublasHandle_t& h = handles.h[static_cast<size_t>(dev)];
  if (h == nullptr) {
    SetDevice(dev);
    Check(cublasCreate(&h), "cublasCreate");
  }
  Check(cublasSetStream(h, static_cast<cudaStream_t>(s)), "cublasSetStream");
  return h;
}

cublasOperation_t Op(bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; }

// 16-bit operands, float compute (CUBLAS_COMPUTE_32F: alpha and beta are float).
void GemmEx(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha, const void* a, int lda,
            const void* b, int ldb, float beta, void* c, int ldc, cudaDataType_t t) {
  Check(cublasGemmEx(Handle(dev, s), Op(tb), Op(ta), n, m, k, &alpha, b, t, ldb, a, t, lda, &beta, c, t, ldc,
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

void GemmStridedBatchedEx(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha, const void* a,
                          int lda, int64_t sa, const void* b, int ldb, int64_t sb, float beta, void* c, int ldc,
                          int64_t sc, int batch, cudaDataType_t t) {
  Check(cublasGemmStridedBatchedEx(Handle(dev, s), Op(tb), Op(ta), n, m, k, &alpha, b, t, ldb, sb, a, t, lda, sa,
                                   &beta, c, t, ldc, sc, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmStridedBatchedEx");
}

}  // namespace

void Gemm(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha, const float* a,
          int lda, const float* b, int ldb, float beta, float* c, int ldc) {
  Check(cublasSgemm(Handle(dev, s), Op(tb), Op(ta), n, m, k, &alpha, b, ldb, a, lda, &beta, c, ldc),
        "cublasSgemm");
}

void Gemm(int dev, Stream s, bool ta, bool tb, int m, int n, int k, double alpha, const double* a,
          int lda, const double* b, int ldb, double beta, double* c, int ldc) {
  Check(cublasDgemm(Handle(dev, s), Op(tb), Op(ta), n, m, k, &alpha, b, ldb, a, lda, &beta, c, ldc),
        "cublasDgemm");
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha,
                        const float* a, int lda, int64_t sa, const float* b, int ldb, int64_t sb,
                        float beta, float* c, int ldc, int64_t sc, int batch) {
  Check(cublasSgemmStridedBatched(Handle(dev, s), Op(tb), Op(ta), n, m, k, &alpha, b, ldb, sb, a, lda,
                                  sa, &beta, c, ldc, sc, batch),
        "cublasSgemmStridedBatched");
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, double alpha,
                        const double* a, int lda, int64_t sa, const double* b, int ldb, int64_t sb,
                        double beta, double* c, int ldc, int64_t sc, int batch) {
  Check(cublasDgemmStridedBatched(Handle(dev, s), Op(tb), Op(ta), n, m, k, &alpha, b, ldb, sb, a, lda,
                                  sa, &beta, c, ldc, sc, batch),
        "cublasDgemmStridedBatched");
}

void Gemm(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha, const half_t* a, int lda,
          const half_t* b, int ldb, float beta, half_t* c, int ldc) {
  GemmEx(dev, s, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, CUDA_R_16F);
}

void Gemm(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha, const bf16_t* a, int lda,
          const bf16_t* b, int ldb, float beta, bf16_t* c, int ldc) {
  GemmEx(dev, s, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, CUDA_R_16BF);
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha,
                        const half_t* a, int lda, int64_t sa, const half_t* b, int ldb, int64_t sb,
                        float beta, half_t* c, int ldc, int64_t sc, int batch) {
  GemmStridedBatchedEx(dev, s, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch, CUDA_R_16F);
}

void GemmStridedBatched(int dev, Stream s, bool ta, bool tb, int m, int n, int k, float alpha,
                        const bf16_t* a, int lda, int64_t sa, const bf16_t* b, int ldb, int64_t sb,
                        float beta, bf16_t* c, int ldc, int64_t sc, int batch) {
  GemmStridedBatchedEx(dev, s, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch, CUDA_R_16BF);
}

}  // namespace gpu
}  // namespace weft
