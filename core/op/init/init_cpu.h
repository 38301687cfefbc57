// CPU kernels of the init ops that are not plain fills (FillCPU in copy.h):
// _arange and _eye.
#pragma once
#include <cstdint>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// out[i] = start + (i / repeat) * step, computed in double.
void ArangeCPU(double start, double step, int64_t repeat, OpReq req, const TensorView& out);

// out[i, j] = (j - i == k) ? 1 : 0 for a 2-D out.
void EyeCPU(int64_t k, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
