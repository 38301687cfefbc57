// How _backward_dot and _backward_batch_dot (core/op/backward_misc.cc, Note
// [Dot backward]) turn their parameters and the shapes of lhs and rhs into
// GEMMs. Defined once, next to the ops' declarations, and shared by the CPU
// kernel and the GPU kernels (core/op/cuda/fully_connected_dot.cu), which must
// run exactly the CPU's products. Host code: called before any kernel is
// launched.
#pragma once
#include "core/base/shape.h"
#include "core/op/cpu/dot.h"
#include "core/op/op_def.h"

namespace weft {
namespace tensor {

// One product of the backward: GEMM(desc) of the op's inputs a and b (0:
// out_grad, 1: lhs, 2: rhs), in that order.
struct DotGradGemm {
  tensor_cpu::GemmDesc desc;
  int a = 0, b = 0;
};

// The products writing lhs_grad (grad[0], the op's output 0) and rhs_grad
// (grad[1], output 1), from transpose_a and transpose_b; batched: batch_dot.
struct DotBackwardPlan {
  DotGradGemm grad[2];
};
DotBackwardPlan DotBackwardGeometry(const Params& p, const Shape& lhs, const Shape& rhs, bool batched);

}  // namespace tensor
}  // namespace weft
