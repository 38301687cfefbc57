// The (outer, n, inner) view of _np_cumsum (cumsum) around its axis, shared by
// the declaration, the CPU kernel and the GPU kernel: axis None is the
// flattened array (one row of all elements).
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct CumsumRows {
  int64_t outer = 1, n = 1, inner = 1;
};

// Throws kInvalidArgument naming the op when the axis is out of range for s.
CumsumRows CumsumRowsOf(const Params& p, const Shape& s);

}  // namespace tensor
}  // namespace weft
