// How the basic slicing ops (core/op/shape/slice.cc: slice, _slice_assign,
// _slice_assign_scalar, slice_axis) decode their parameters against the data
// shape, validated with shape inference's messages. Defined once, next to the
// ops' declarations, and shared by the CPU kernels and the GPU kernels
// (core/op/shape/concat_slice.cu), which must select exactly the CPU's region.
// Host code: called before any kernel is launched.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

// The region begin[:end:step] of a contiguous array of shape d, per dim of d
// (dims the parameters leave out: begin 0, step 1, the whole dim): element
// begin[k] + q * step[k] for q in [0, shape[k]). As a strided view of the
// array: offset + sum q_k * stride[k] (elements).
struct SliceView {
  std::vector<int64_t> shape, stride;
  int64_t offset = 0;
  std::vector<int64_t> begin, step;
};

// slice / _slice_assign / _slice_assign_scalar: begin, end and step (None
// entries, Python's clamping) applied to d; `input` names d in messages.
SliceView PlanSlice(const Params& p, const Shape& d, const std::string& input);

// slice_axis: the axis and the range [*b, *b + *n) along it (MXNet's checks:
// indices wrap once and must then lie inside the axis).
void PlanSliceAxis(const Params& p, const Shape& d, int* axis, int64_t* b, int64_t* n);

}  // namespace tensor
}  // namespace weft
