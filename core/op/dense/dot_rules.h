// How dot, batch_dot and their backward ops (dot.cc, dot_backward.cc, Note [Dot
// backward]) turn their parameters and the shapes of lhs and rhs into GEMMs.
// Defined once, next to the ops' declarations, and shared by shape inference,
// the CPU kernels and the GPU kernels (core/op/dense/dot.cu),
// which must run exactly the CPU's products. Host code: called before any
// kernel is launched.
#pragma once
#include "core/base/shape.h"
#include "core/op/dense/dot_cpu.h"

namespace weft {
namespace tensor {

// dot(lhs, rhs): MXNet's N-D rule (lhs flattened to 2-D over all axes but the
// last, rhs over all but the first; transpose_a/_b contract the other end).
// Validates the shapes with shape inference's messages, fills *d and returns
// the output shape.
Shape DotGeometry(const Params& p, const Shape& lhs, const Shape& rhs, tensor_cpu::GemmDesc* d);
// batch_dot(lhs, rhs): every axis but the last two is a batch axis.
Shape BatchDotGeometry(const Params& p, const Shape& lhs, const Shape& rhs, tensor_cpu::GemmDesc* d);

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
