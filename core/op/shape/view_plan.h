// The layout ops that are one strided copy (Note [Ops that are one strided
// copy]): tile, repeat, reverse, SwapAxis, depth_to_space, space_to_depth,
// diag, slice_like, Crop and the backward ops of the injective ones. Each op's
// plan is computed here once, from its parameters and shapes, and run by the
// CPU (view_plan_cpu.cc) and the GPU (view_plan.cu) alike.
#pragma once
#include <cstdint>
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

// Note [Ops that are one strided copy]
// out[dst_off + sum i_k dst_stride_k] = in[src_off + sum i_k src_stride_k] for
// every index i of `shape`. A zero source stride repeats (tile, repeat), a
// negative one reverses (reverse), a permutation of strides moves axes
// (SwapAxis, depth_to_space), a summed stride walks a diagonal (diag), an
// offset slices (slice_like, Crop). When `zero_fill`, the output is zeroed first
// and the copy writes only part of it (diag of a vector, the backward ops that
// scatter a gradient back into the input's shape). Every destination position
// is distinct, so the GPU writes each from one index.
struct ViewPlan {
  std::vector<int64_t> shape, src_stride, dst_stride;
  int64_t src_off = 0, dst_off = 0;
  bool zero_fill = false;
};

// A plan from the op's parameters, its first input's shape and its output's.
using ViewPlanFn = ViewPlan (*)(const Params& p, const Shape& in, const Shape& out);

// The output shapes (they also check the parameters, naming op and argument).
Shape TileShape(const Params& p, const Shape& in);
Shape RepeatShape(const Params& p, const Shape& in);
std::vector<int> ReverseAxes(const Params& p, int ndim);  // distinct, normalised
std::pair<int, int> SwapAxes(const Params& p, int ndim);
Shape SwapAxisShape(const Params& p, const Shape& in);
Shape DepthToSpaceShape(const Params& p, const Shape& in);
Shape SpaceToDepthShape(const Params& p, const Shape& in);
Shape DiagShape(const Params& p, const Shape& in);
Shape SliceLikeShape(const Params& p, const Shape& in, const Shape& like);
// Crop's output and its (top, left) offset; `like` is crop_like's shape or unknown.
Shape CropShape(const Params& p, const Shape& in, const Shape& like, int64_t* top, int64_t* left);

ViewPlan TilePlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan RepeatPlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan ReversePlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan SwapAxisPlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan DepthToSpacePlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan SpaceToDepthPlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan DiagPlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan SliceLikePlan(const Params& p, const Shape& in, const Shape& out);
ViewPlan CropPlan(const Params& p, const Shape& in, const Shape& out);
// The backward ops (_backward_diag, _backward_slice_like, _backward_Crop):
// `in` is out_grad's shape, `out` the forward data's; the forward plan with
// source and destination swapped, into a zeroed output (diag of a vector:
// the diagonal read back, no fill).
ViewPlan BackwardDiagPlan(const Params& p, const Shape& og, const Shape& data);
ViewPlan BackwardSliceLikePlan(const Params& p, const Shape& og, const Shape& data);
ViewPlan BackwardCropPlan(const Params& p, const Shape& og, const Shape& data);

// _split_v2: the [begin, end) of each output along the (normalised) axis, from
// indices (split points) or sections (equal parts), checked against data.
struct SplitV2Parts {
  int axis = 0;
  std::vector<int64_t> begin, end;
};
SplitV2Parts SplitV2Ranges(const Params& p, const Shape& in);
std::vector<Shape> SplitV2Shapes(const Params& p, const Shape& in);
int SplitV2NumOutputs(const Params& p);
// Output i's plan.
ViewPlan SplitV2Plan(const Params& p, const Shape& in, int i);

// The backward ops of tile and repeat (_backward_tile, _backward_repeat): each
// element of data's gradient sums the out_grad elements copied from it,
// grad[o] = sum over i of og[offset(o; outer_stride) + offset(i; inner_stride)]
// for o over `outer` (data's elements, row-major) and i over `inner`.
struct SumPlan {
  std::vector<int64_t> outer, outer_stride, inner, inner_stride;
};
SumPlan BackwardTilePlan(const Params& p, const Shape& og, const Shape& data);
SumPlan BackwardRepeatPlan(const Params& p, const Shape& og, const Shape& data);

}  // namespace tensor
}  // namespace weft
