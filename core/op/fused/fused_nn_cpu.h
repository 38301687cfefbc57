// CPU kernels of the layer + activation operators (core/op/fused/fused_nn.cc):
// the layer's own kernel, then bias and activation applied to the output in
// blocks small enough to stay in cache.
#pragma once
#include "core/op/act/activation_cpu.h"
#include "core/op/layer/layer_cpu.h"
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace fused_cpu {

// y (req)= act(x w^T + b): FullyConnected's GEMM, then one pass per block of
// rows that adds the bias and applies the activation (b == nullptr: no bias).
// Same arithmetic as FullyConnected followed by Activation.
void FCActForward(const nn_cpu::FCGeom& g, nnx_cpu::ActKind act, const TensorView& x, const TensorView& w,
                  const TensorView* b, OpReq req, const TensorView& y);

// y (req)= act(t), where t holds a layer's result: y itself (t == nullptr;
// then req must not be kAddTo and y is rewritten in place) or a scratch array.
void ActivationEpilogue(nnx_cpu::ActKind act, const TensorView* t, OpReq req, const TensorView& y);

}  // namespace fused_cpu
}  // namespace weft
