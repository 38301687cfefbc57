// CPU kernel of _contrib_allclose (core/op/elemwise/allclose.cc).
#pragma once
#include "core/op/elemwise/allclose_rules.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace tensor_cpu {

// out[0] (int32) = 1 when every a[i] is close to b[i] (same shape and dtype), else 0.
void AllCloseCPU(const tensor::CloseRule& rule, const TensorView& a, const TensorView& b, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
