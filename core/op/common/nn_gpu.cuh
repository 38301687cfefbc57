// Shared by the GPU kernels that multiply matrices (core/op/dense/dot.cu,
// layer/fully_connected.cu, layer/convolution.cu, seq/rnn.cu, fused/fused_nn.cu, ...):
// the GEMM entry point they all use, the convolution the fused op reuses and
// the activation of the fused layers (their geometries: core/op/layer/layer_rules.h).
// Declarations and small WEFT_HD formulas only; the kernels live in the .cu
// files (Note [GPU kernel style]).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/half_hd.h"
#include "core/op/layer/layer_cpu.h"  // ConvGeom, FCGeom: plain geometry structs

namespace weft {
namespace cuda {

// c (beta)= op(a) * op(b), row-major with the CPU kernels' argument order
// (nn_cpu::Gemm: alpha 1, leading dimensions as stored), on the op's stream.
// Empty products are handled here (k == 0 gives beta * c), and sizes are
// checked to fit cuBLAS's int. Defined in core/op/dense/dot.cu.
#define WEFT_DENSE_GEMM_DECL(T)                                                                              \
  void DenseGemm(const OpContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, \
                 const T* b, int64_t ldb, T beta, T* c, int64_t ldc);                                           \
  /* `batch` such products, the i-th at a + i*sa, b + i*sb, c + i*sc (elements). */                            \
  void DenseGemmBatched(const OpContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a,    \
                        int64_t lda, int64_t sa, const T* b, int64_t ldb, int64_t sb, T beta, T* c, int64_t ldc, \
                        int64_t sc, int64_t batch);
WEFT_DENSE_GEMM_DECL(float)
WEFT_DENSE_GEMM_DECL(double)
WEFT_DENSE_GEMM_DECL(gpu_half)
WEFT_DENSE_GEMM_DECL(gpu_bf16)
#undef WEFT_DENSE_GEMM_DECL

// y (req)= act(conv(x, w) + b): b may be null; act is an nnx_cpu::ActKind
// value, or -1 for none (Convolution itself).
void ConvForwardGPU(const OpContext& ctx, const nn_cpu::ConvGeom& g, const TensorView& x, const TensorView& w,
                    const TensorView* b, int act, OpReq req, const TensorView& y);

// Activation of the fused layers, nnx_cpu::ActKind order (relu, sigmoid,
// log_sigmoid, mish, tanh, softrelu, softsign), the formulas of
// core/op/act/activation_cpu.cc computed in A (float for float32, double for float64).
template <typename A>
WEFT_HD inline A SoftReluOf(A v) {
  return v > A(20) ? v : std::log1p(std::exp(v));
}
template <typename A>
WEFT_HD inline A ApplyAct(int kind, A v) {
  switch (kind) {
    case 0: return v < A(0) ? A(0) : v;  // std::max(v, 0): NaN stays NaN
    case 1: return A(1) / (A(1) + std::exp(-v));
    case 2: return v < A(0) ? v - std::log1p(std::exp(v)) : -std::log1p(std::exp(-v));
    case 3: return v * std::tanh(SoftReluOf(v));
    case 4: return std::tanh(v);
    case 5: return SoftReluOf(v);
    case 6: return v / (A(1) + std::fabs(v));
    default: return v;  // -1: no activation
  }
}

}  // namespace cuda
}  // namespace weft
