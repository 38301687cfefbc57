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

}  // namespace gpu
}  // namespace weft
