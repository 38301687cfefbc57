// The GEMM plans of the interleaved multi-head attention products
// (_contrib_interleaved_matmul_*, core/op/dense/interleaved_matmul.cc), shared by
// their CPU kernels (nn_cpu::Gemm per batch) and their GPU kernels
// (gpu::GemmStridedBatched, interleaved_matmul.cu), so both address the
// interleaved buffers identically.
//
// Note [Interleaved attention layout] (MXNet 1.x, contrib/transformer.cc)
// With B sequences, H heads, head size D and E = H * D, attention batch
// i = b * H + h:
//   selfatt: queries_keys_values (L, B, 3E); head h of sequence b holds
//            [q | k | v] (D each) at [t, b, 3Dh : 3D(h+1)];
//   encdec:  queries (Lq, B, E), head h at [t, b, Dh : D(h+1)];
//            keys_values (Lk, B, 2E), [k | v] at [t, b, 2Dh : 2D(h+1)];
//   attention scores: (B * H, Lq, Lk), row tq of batch i against key tk;
//   valatt outputs: (Lq, B, E), head h at [t, b, Dh : D(h+1)].
// qk = (q / sqrt(D)) k^T per batch; valatt = attention v per batch. The
// gradients of the unused thirds (v of qk's input, q and k of valatt's) are zero.
#pragma once
#include <cstdint>
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/params.h"

namespace weft {
namespace nnm {

// C_i (beta)= alpha * op(A_i) op(B_i), i < batch, row-major: matrix i of A at
// a_off + i * sa with row stride lda (likewise B, C); `a`/`b` name the
// operand (an input index of the op, or -1 for out_grad) and `c` the output.
struct StridedGemm {
  bool ta = false, tb = false;
  int64_t m = 0, n = 0, k = 0, batch = 0;
  int a = 0, b = 0, c = 0;  // operands: input index; c: output index
  int64_t a_off = 0, lda = 0, sa = 0, b_off = 0, ldb = 0, sb = 0, c_off = 0, ldc = 0, sc = 0;
  double alpha = 1.0;
};

// The products computing an op's outputs from its inputs (the forward op or
// its _backward_ op, which takes (out_grad, forward inputs...)); `zero_first`
// lists the outputs that must be cleared before the products when written
// (their unused thirds stay zero).
struct InterleavedPlan {
  std::vector<StridedGemm> gemms;
  std::vector<int> zero_first;
};
InterleavedPlan InterleavedPlanOf(const Params& p, const std::vector<Shape>& in);

}  // namespace nnm
}  // namespace weft
