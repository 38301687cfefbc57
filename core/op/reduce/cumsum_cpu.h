// CPU kernel of _np_cumsum and its backward (core/op/reduce/cumsum.cc).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/reduce/cumsum_rules.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace tensor_cpu {

// out (req)= the running sum of in along the middle axis of rows (from the
// end when reverse: the gradient), in out's dtype (in is converted first).
// kAddTo with in and out of different dtypes throws kInvalidArgument.
void Cumsum(const char* op, const tensor::CumsumRows& rows, bool reverse, const TensorView& in, OpReq req,
            const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
