// The slices _npi_unique (np.unique) compares, from its axis parameter:
// shared by the declaration, the CPU kernel and the GPU kernel.
#pragma once
#include "core/base/shape.h"
#include "core/opdef/params.h"
#include "core/op/sort/unique_rules.h"

namespace weft {
namespace tensor {

// axis None: the flattened array's elements; else the slices along the axis
// (kInvalidArgument naming the op for an axis out of range or a 0-d input).
UniqueGeom UniqueGeomOf(const Params& p, const Shape& s);

}  // namespace tensor
}  // namespace weft
