// CPU matrix products for dot and batch_dot: OpenBLAS for float32/float64, a
// plain loop (accumulating in float / int64) for the other dtypes.
#pragma once
#include <cstdint>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// One row-major GEMM description: C[M,N] (req)= op(A) * op(B), where A is
// stored as [M,K] (or [K,M] when trans_a) with leading dimension lda, and B
// as [K,N] (or [N,K] when trans_b). `batch` products follow each other in
// memory with strides stride_a/b/c (elements).
struct GemmDesc {
  bool trans_a = false, trans_b = false;
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 1, stride_a = 0, stride_b = 0, stride_c = 0;
};

// All three views share one dtype (checked by type inference).
void GemmCPU(const GemmDesc& d, const TensorView& a, const TensorView& b, OpReq req, const TensorView& c);

}  // namespace tensor_cpu
}  // namespace weft
