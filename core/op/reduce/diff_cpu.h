// CPU kernels of _npi_diff and _backward_npi_diff (core/op/reduce/diff.cc).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/reduce/diff_rules.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace tensor_cpu {

// out (req)= the g.n-th difference of in along g's axis (every dtype).
void Diff(const tensor::DiffGeom& g, const TensorView& in, OpReq req, const TensorView& out);

// grad (req)= the gradient of Diff from og; floating dtypes, others throw kDType.
void DiffBackward(const tensor::DiffGeom& g, const TensorView& og, OpReq req, const TensorView& grad);

}  // namespace tensor_cpu
}  // namespace weft
