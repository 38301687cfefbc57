// CPU kernels of the index-based ops: take, pick, one_hot, gather_nd and
// _scatter_set_nd. Indices may have any dtype; they are read as int64
// (floats truncated, NaN as 0). Data is moved by element size, not dtype.
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

enum class IndexMode : int { kClip, kWrap, kRaise };

// Index values as int64, in order.
std::vector<int64_t> ReadIndices(const TensorView& idx);

// out = a.take(indices, axis): out[o, i, k] = a[o, fix(idx[i]), k], where a is
// seen as [outer, n, inner]. kRaise throws kInvalidArgument (the engine adds the op name).
void TakeCPU(const TensorView& a, const TensorView& indices, int axis, IndexMode mode, OpReq req,
             const TensorView& out);

// out[o, k] = data[o, fix(index[o, k]), k] with data seen as [outer, n, inner].
void PickCPU(const TensorView& data, const TensorView& index, int axis, IndexMode mode, OpReq req,
             const TensorView& out);

// out[i, :] = off_value except out[i, idx[i]] = on_value for 0 <= idx[i] < depth.
void OneHotCPU(const TensorView& indices, int64_t depth, double on_value, double off_value, OpReq req,
               const TensorView& out);

// out[n, :] = data[idx[0][n], ..., idx[M-1][n], :] (negative indices wrap once;
// out-of-range ones throw kInvalidArgument).
void GatherNDCPU(const TensorView& data, const TensorView& indices, OpReq req, const TensorView& out);

// out = lhs, then out[idx[0][n], ..., idx[M-1][n], :] = rhs[n, :] (later
// duplicates win). out may be lhs itself.
void ScatterSetNDCPU(const TensorView& lhs, const TensorView& rhs, const TensorView& indices, OpReq req,
                     const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
