// CPU kernels of the sequence ops (SequenceMask, SequenceLast).
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

// Sequences: axis 0 means x is (T, B, ...), axis 1 (B, T, ...). lengths
// (one per batch entry, truncated toward zero) may be empty: full length.
//
// y (req)= x with steps t >= length[b] set to value (SequenceMask; its
// gradient is the same with value 0).
void SequenceMaskCPU(const TensorView& x, const std::vector<double>& lengths, int axis, double value, OpReq req,
                     const TensorView& y);
// y[b, ...] (req)= x at step length[b] - 1 (clipped to [0, T)).
void SequenceLastForward(const TensorView& x, const std::vector<double>& lengths, int axis, OpReq req,
                         const TensorView& y);
// gx (req)= gy scattered to step length[b] - 1, zero elsewhere.
void SequenceLastBackward(const TensorView& gy, const std::vector<double>& lengths, int axis, OpReq req,
                          const TensorView& gx);

}  // namespace nnx_cpu
}  // namespace weft
