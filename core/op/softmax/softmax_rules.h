// How the softmax ops see their data: the (outer, n, inner) view around the
// softmax axis (core/op/common/nnx_util.h AxisSplit) and the temperature, decoded
// from an op's parameters. Defined next to the ops' declarations (softmax.cc,
// softmax_output.cc) and shared with their GPU kernels
// (core/op/softmax/softmax_loss.cu), which must split the data exactly as the
// CPU does. Host code: called before any kernel is launched.
#pragma once
#include <string>

#include "core/base/shape.h"
#include "core/op/common/nnx_util.h"

namespace weft {
namespace nnx {

// softmax, log_softmax: the temperature (None: 1); throws kInvalidArgument
// unless it is a non-zero number.
double SoftmaxTemperature(const Params& p);
// The second-order gradient does not take use_length=True; throws kInvalidArgument.
void CheckSoftmaxNoLength(const Params& p);
// use_length (Note [Softmax with length] in softmax.cc): the length input's
// shape for data (the data's without the axis; (1,) for 1-D data), and its
// dtypes (int32, int64, float32, float64; kDType naming op otherwise).
Shape SoftmaxLengthShape(const Params& p, const Shape& data);
void CheckSoftmaxLengthType(const std::string& op, DType t);
// softmax, log_softmax: data around the axis parameter (checked against its rank).
AxisSplit SoftmaxAxisSplit(const Params& p, const Shape& data);
// SoftmaxActivation: per instance (n = all axes but the first), or over axis 1
// at every position (mode=channel).
AxisSplit SoftmaxActivationSplit(const Params& p, const Shape& data);
// SoftmaxOutput's forward: rows (d0, size/d0) by default, the last axis with
// preserve_shape, axis 1 at every position with multi_output.
AxisSplit SoftmaxOutputSplit(const Params& p, const Shape& data);

}  // namespace nnx
}  // namespace weft
