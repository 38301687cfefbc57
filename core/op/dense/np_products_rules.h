// How _np_dot, _npi_matmul, _npi_tensordot and _npi_tensordot_int_axes
// (np_products.cc) and their backward ops turn the shapes of a and b into lists
// of matrix products (Note [NumPy products as
// GEMM lists] in np_products_rules.cc). Shared by shape inference, the CPU
// kernels and the GPU kernels (np_products.cu), which run the same products.
// Host code: called before any kernel runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/op_def.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

// Products writing one output: for each i, the block of C at off_c[i] (row
// stride ldc) (beta)= op(A)[m, k] * op(B)[k, n] with A's block at off_a[i]
// (row stride lda, stored [m, k], or [k, m] when trans_a) and B's at off_b[i]
// (stored [k, n], or [n, k] when trans_b). A and B are the kernel's inputs
// input_a and input_b. beta is 1 for a product whose block an earlier one of
// the list wrote (accumulate[i]) or under kAddTo, else 0; an empty list under
// kWrite leaves C all zeros.
struct NpGemmList {
  bool trans_a = false, trans_b = false;
  int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  int input_a = 0, input_b = 1;
  std::vector<int64_t> off_a, off_b, off_c;
  std::vector<char> accumulate;
  // _npi_tensordot's pairings that are no single product (Note [Tensordot
  // pairings as einsum]): the list is empty and the kernels run _npi_einsum's
  // kernels with `subscripts` instead.
  bool as_einsum = false;
  std::string subscripts;
};

// The forward's products (inputs a = 0, b = 1) and its output shape, from the
// op's parameters; throws kShape (kInvalidArgument for a parameter) naming the
// op for shapes NumPy refuses.
using NpProductPlanner = NpGemmList (*)(const Params& p, const Shape& a, const Shape& b, Shape* out);
NpGemmList NpDotPlan(const Params& p, const Shape& a, const Shape& b, Shape* out);        // NumPy's dot
NpGemmList NpMatmulPlan(const Params& p, const Shape& a, const Shape& b, Shape* out);     // NumPy's matmul
NpGemmList NpTensordotPlan(const Params& p, const Shape& a, const Shape& b, Shape* out);  // axes pairs
NpGemmList NpTensordotIntPlan(const Params& p, const Shape& a, const Shape& b, Shape* out);  // axes=N
// The backward's two lists (inputs out_grad = 0, a = 1, b = 2): grads[0]
// writes a's gradient, grads[1] b's.
void NpProductBackward(const NpGemmList& forward, NpGemmList grads[2]);

// Runs an as_einsum list (Note [Tensordot pairings as einsum]) with the
// registered kernels of _npi_einsum (backward false: inputs a, b) or
// _backward_npi_einsum (inputs out_grad, a, b; outputs both gradients), on
// the GPU when `gpu`.
void RunTensordotAsEinsum(const NpGemmList& g, bool backward, bool gpu, const OpContext& ctx,
                          const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                          const std::vector<TensorView>& out);

}  // namespace tensor
}  // namespace weft
