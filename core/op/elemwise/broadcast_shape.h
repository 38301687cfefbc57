// The shape rule of the broadcasting binary ops, shared by the broadcast_*
// family (broadcast.cc) and the NumPy ops that broadcast the same way
// (bitwise.cc).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {

// MXNet's BinaryBroadcastShape (a 0 dim broadcasts with 1, like NumPy): out[0]
// from in[0] (lhs) and in[1] (rhs), left-padded with 1s to one ndim; each pair
// of dims must be equal or contain a 1 (kShape naming op otherwise). False
// while either input is unknown.
bool BroadcastBinaryInfer(const OpDef& op, std::vector<Shape>* in, std::vector<Shape>* out);

}  // namespace weft
