// CPU kernels of all_finite, multi_all_finite and multi_sum_sq
// (core/op/optim/multi_check.cc).
#pragma once
#include <vector>

#include "core/opdef/tensor_view.h"

namespace weft {
namespace tensor_cpu {

// out[0] (float32) = 0 when some element of some input is NaN or infinite;
// set to 1 first when init (else left as it is otherwise).
void AllFiniteCPU(const char* op, const std::vector<TensorView>& in, bool init, const TensorView& out);
// out[i] (float32) = sum of the squares of in[i]'s elements (accumulated in double).
void MultiSumSqCPU(const std::vector<TensorView>& in, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
