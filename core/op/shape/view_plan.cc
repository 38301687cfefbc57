// The plans of the layout ops that are one strided copy (Note [Ops that are
// one strided copy] in view_plan.h) and their output shapes.
#include "core/op/shape/view_plan.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"

namespace weft {
namespace tensor {
namespace {

std::vector<int64_t> Strides(const Shape& s) { return tensor_cpu::ContiguousStrides(s.dims()); }

// A plan that walks `out` contiguously.
ViewPlan Walk(const Shape& out) {
  ViewPlan v;
  v.shape = out.dims();
  v.dst_stride = Strides(out);
  return v;
}

ViewPlan Swapped(ViewPlan v) {
  std::swap(v.src_stride, v.dst_stride);
  std::swap(v.src_off, v.dst_off);
  v.zero_fill = true;
  return v;
}

// tile's data and reps, both left-padded with 1s to one length.
void TileDims(const Params& p, const Shape& in, std::vector<int64_t>* d, std::vector<int64_t>* r) {
  const std::vector<int64_t>& reps = p.GetTuple("reps");
  CheckNoNone(reps, "tile", "reps");
  const size_t n = std::max(reps.size(), static_cast<size_t>(in.ndim()));
  d->assign(n, 1);
  r->assign(n, 1);
  for (int i = 0; i < in.ndim(); ++i) (*d)[n - static_cast<size_t>(in.ndim()) + static_cast<size_t>(i)] = in[i];
  for (size_t i = 0; i < reps.size(); ++i) {
    WEFT_CHECK(reps[i] >= 0, kInvalidArgument)
        << "tile: reps " << TupleString(reps) << " must be non-negative";
    (*r)[n - reps.size() + i] = reps[i];
  }
}

}  // namespace

// ---- tile ----

Shape TileShape(const Params& p, const Shape& in) {
  std::vector<int64_t> d, r;
  TileDims(p, in, &d, &r);
  Shape o;
  for (size_t i = 0; i < d.size(); ++i) o.push_back(CheckedMul(d[i], r[i], "tile: output dimension (dim * reps)"));
  return o;
}

ViewPlan TilePlan(const Params& p, const Shape& in, const Shape&) {
  std::vector<int64_t> d, r;
  TileDims(p, in, &d, &r);
  // Output axis i viewed as (rep, d_i): the rep index reads with stride 0.
  ViewPlan v;
  Shape view;
  const std::vector<int64_t> is = tensor_cpu::ContiguousStrides(d);
  for (size_t i = 0; i < d.size(); ++i) {
    view.push_back(r[i]);
    view.push_back(d[i]);
    v.src_stride.push_back(0);
    v.src_stride.push_back(is[i]);
  }
  v.shape = view.dims();
  v.dst_stride = Strides(view);
  return v;
}

SumPlan BackwardTilePlan(const Params& p, const Shape&, const Shape& data) {
  const ViewPlan v = TilePlan(p, data, Shape());
  SumPlan s;
  for (size_t i = 0; i < v.shape.size(); i += 2) {
    s.inner.push_back(v.shape[i]);
    s.inner_stride.push_back(v.dst_stride[i]);
    s.outer.push_back(v.shape[i + 1]);
    s.outer_stride.push_back(v.dst_stride[i + 1]);
  }
  return s;
}

// ---- repeat ----

Shape RepeatShape(const Params& p, const Shape& in) {
  const int64_t r = p.GetInt("repeats");
  WEFT_CHECK(r >= 0, kInvalidArgument) << "repeat: repeats must be non-negative, got " << r;
  if (p.IsNone("axis")) return Shape({CheckedMul(in.Size(), r, "repeat: output size (size * repeats)")});
  const int ax = NormalizeAxis(p.GetInt("axis"), in.ndim(), "repeat", "data");
  Shape o = in;
  o[ax] = CheckedMul(o[ax], r, "repeat: output dimension (dim * repeats)");
  return o;
}

ViewPlan RepeatPlan(const Params& p, const Shape& in, const Shape&) {
  const int64_t r = p.GetInt("repeats");
  Shape flat = p.IsNone("axis") ? Shape({in.Size()}) : in;
  const int ax = p.IsNone("axis") ? 0 : NormalizeAxis(p.GetInt("axis"), in.ndim(), "repeat", "data");
  // Output axis ax viewed as (d_ax, r): the repeat index reads with stride 0.
  const std::vector<int64_t> is = Strides(flat);
  ViewPlan v;
  Shape view;
  for (int i = 0; i < flat.ndim(); ++i) {
    view.push_back(flat[i]);
    v.src_stride.push_back(is[static_cast<size_t>(i)]);
    if (i == ax) {
      view.push_back(r);
      v.src_stride.push_back(0);
    }
  }
  v.shape = view.dims();
  v.dst_stride = Strides(view);
  return v;
}

SumPlan BackwardRepeatPlan(const Params& p, const Shape&, const Shape& data) {
  const ViewPlan v = RepeatPlan(p, data, Shape());
  // View axis ax + 1 is the repeat index.
  SumPlan s;
  const int ax = p.IsNone("axis") ? 0 : NormalizeAxis(p.GetInt("axis"), data.ndim(), "repeat", "data");
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (i == static_cast<size_t>(ax) + 1) {
      s.inner.push_back(v.shape[i]);
      s.inner_stride.push_back(v.dst_stride[i]);
    } else {
      s.outer.push_back(v.shape[i]);
      s.outer_stride.push_back(v.dst_stride[i]);
    }
  }
  return s;
}

// ---- reverse ----

std::vector<int> ReverseAxes(const Params& p, int ndim) {
  const std::vector<int64_t>& axes = p.GetTuple("axis");
  CheckNoNone(axes, "reverse", "axis");
  std::vector<int> r;
  for (int64_t a : axes) {
    const int ax = NormalizeAxis(a, ndim, "reverse", "data");
    WEFT_CHECK(std::find(r.begin(), r.end(), ax) == r.end(), kInvalidArgument)
        << "reverse: axis " << TupleString(axes) << " names axis " << ax << " twice";
    r.push_back(ax);
  }
  return r;
}

ViewPlan ReversePlan(const Params& p, const Shape& in, const Shape& out) {
  ViewPlan v = Walk(out);
  v.src_stride = Strides(in);
  for (int ax : ReverseAxes(p, in.ndim())) {
    int64_t& s = v.src_stride[static_cast<size_t>(ax)];
    if (in[ax] > 0) v.src_off += (in[ax] - 1) * s;
    s = -s;
  }
  return v;
}

// ---- SwapAxis ----

std::pair<int, int> SwapAxes(const Params& p, int ndim) {
  return {NormalizeAxis(p.GetInt("dim1"), ndim, "SwapAxis", "data", 0, "dim1"),
          NormalizeAxis(p.GetInt("dim2"), ndim, "SwapAxis", "data", 0, "dim2")};
}

Shape SwapAxisShape(const Params& p, const Shape& in) {
  const std::pair<int, int> a = SwapAxes(p, in.ndim());
  Shape o = in;
  std::swap(o[a.first], o[a.second]);
  return o;
}

ViewPlan SwapAxisPlan(const Params& p, const Shape& in, const Shape& out) {
  const std::pair<int, int> a = SwapAxes(p, in.ndim());
  ViewPlan v = Walk(out);
  v.src_stride = Strides(in);
  std::swap(v.src_stride[static_cast<size_t>(a.first)], v.src_stride[static_cast<size_t>(a.second)]);
  return v;
}

// ---- depth_to_space / space_to_depth ----

namespace {
int64_t BlockSize(const Params& p, const Shape& in, const char* op) {
  const int64_t b = p.GetInt("block_size");
  WEFT_CHECK(b > 0, kInvalidArgument) << op << ": block_size must be positive, got " << b;
  WEFT_CHECK(in.ndim() == 4, kShape) << op << ": input 'data' must be 4-D (N, C, H, W), got shape "
                                     << in.ToString();
  return b;
}
}  // namespace

Shape DepthToSpaceShape(const Params& p, const Shape& in) {
  const int64_t b = BlockSize(p, in, "depth_to_space");
  // b * b wrapped to 0 for b = 2^62 (SIGFPE in the modulo): checked, as every product here.
  const int64_t bb = CheckedMul(b, b, "depth_to_space: block_size^2");
  WEFT_CHECK(in[1] % bb == 0, kShape) << "depth_to_space: the channels of input 'data' (shape "
                                      << in.ToString() << ") must be a multiple of block_size^2 = " << bb;
  return Shape({in[0], in[1] / bb, CheckedMul(in[2], b, "depth_to_space: output height"),
                CheckedMul(in[3], b, "depth_to_space: output width")});
}

Shape SpaceToDepthShape(const Params& p, const Shape& in) {
  const int64_t b = BlockSize(p, in, "space_to_depth");
  WEFT_CHECK(in[2] % b == 0 && in[3] % b == 0, kShape)
      << "space_to_depth: the height and width of input 'data' (shape " << in.ToString()
      << ") must be multiples of block_size " << b;
  const int64_t bb = CheckedMul(b, b, "space_to_depth: block_size^2");
  return Shape({in[0], CheckedMul(in[1], bb, "space_to_depth: output channels"), in[2] / b, in[3] / b});
}

ViewPlan DepthToSpacePlan(const Params& p, const Shape& in, const Shape& out) {
  // out[n, c, h*b + i, w*b + j] = in[n, (i*b + j)*C' + c, h, w], C' = C / b^2.
  const int64_t b = p.GetInt("block_size"), C = in[1], H = in[2], W = in[3], Co = out[1];
  ViewPlan v;
  v.shape = {in[0], Co, H, b, W, b};
  // Saturating (here and in SpaceToDepthPlan): strides pass int64 only for an empty input with a
  // 2**62 dim, whose strides are never used.
  auto mul = [](int64_t x, int64_t y) { return SaturatingMul(x, y); };
  v.src_stride = {mul(mul(C, H), W), mul(H, W), W, mul(mul(mul(b, Co), H), W), 1, mul(mul(Co, H), W)};
  v.dst_stride = tensor_cpu::ContiguousStrides(v.shape);
  return v;
}

ViewPlan SpaceToDepthPlan(const Params& p, const Shape& in, const Shape& out) {
  // out[n, (i*b + j)*C + c, h, w] = in[n, c, h*b + i, w*b + j].
  const int64_t b = p.GetInt("block_size"), C = in[1], H = in[2], W = in[3];
  ViewPlan v;
  v.shape = {in[0], b, b, C, out[2], out[3]};
  auto mul = [](int64_t x, int64_t y) { return SaturatingMul(x, y); };
  v.src_stride = {mul(mul(C, H), W), W, 1, mul(H, W), mul(b, W), b};
  v.dst_stride = tensor_cpu::ContiguousStrides(v.shape);
  return v;
}

// ---- diag ----

namespace {
std::pair<int, int> DiagAxes(const Params& p, const Shape& in) {
  const int a1 = NormalizeAxis(p.GetInt("axis1"), in.ndim(), "diag", "data", 0, "axis1");
  const int a2 = NormalizeAxis(p.GetInt("axis2"), in.ndim(), "diag", "data", 0, "axis2");
  WEFT_CHECK(a1 != a2, kInvalidArgument) << "diag: axis1 and axis2 must name different axes of input 'data', both are "
                                         << a1;
  return {a1, a2};
}
}  // namespace

Shape DiagShape(const Params& p, const Shape& in) {
  WEFT_CHECK(in.ndim() >= 1, kShape) << "diag: input 'data' must have at least 1 dimension, got a scalar";
  const int64_t k = p.GetInt("k");
  if (in.ndim() == 1) {
    const int64_t n = in[0] + (k < 0 ? -k : k);
    return Shape({n, n});
  }
  const std::pair<int, int> a = DiagAxes(p, in);
  const int64_t n1 = in[a.first], n2 = in[a.second];
  const int64_t len = std::max<int64_t>(0, k >= 0 ? std::min(n1, n2 - k) : std::min(n1 + k, n2));
  Shape o;
  for (int i = 0; i < in.ndim(); ++i)
    if (i != a.first && i != a.second) o.push_back(in[i]);
  o.push_back(len);
  return o;
}

ViewPlan DiagPlan(const Params& p, const Shape& in, const Shape& out) {
  const int64_t k = p.GetInt("k");
  ViewPlan v;
  if (in.ndim() == 1) {  // a vector on the k-th diagonal of a zeroed square
    const int64_t n = out[0];
    v.shape = {in[0]};
    v.src_stride = {1};
    v.dst_stride = {n + 1};
    v.dst_off = k >= 0 ? k : -k * n;
    v.zero_fill = true;
    return v;
  }
  const std::pair<int, int> a = DiagAxes(p, in);
  const std::vector<int64_t> is = Strides(in);
  v = Walk(out);
  for (int i = 0; i < in.ndim(); ++i)
    if (i != a.first && i != a.second) v.src_stride.push_back(is[static_cast<size_t>(i)]);
  const int64_t s1 = is[static_cast<size_t>(a.first)], s2 = is[static_cast<size_t>(a.second)];
  v.src_stride.push_back(s1 + s2);
  v.src_off = k >= 0 ? k * s2 : -k * s1;
  return v;
}

ViewPlan BackwardDiagPlan(const Params& p, const Shape& og, const Shape& data) {
  if (data.ndim() == 1) {  // the forward made a matrix: read its diagonal back
    ViewPlan v = DiagPlan(p, data, og);
    v.zero_fill = false;
    std::swap(v.src_stride, v.dst_stride);
    std::swap(v.src_off, v.dst_off);
    return v;
  }
  return Swapped(DiagPlan(p, data, og));
}

// ---- slice_like ----

Shape SliceLikeShape(const Params& p, const Shape& in, const Shape& like) {
  const std::vector<int64_t>& axes = p.GetTuple("axes");
  CheckNoNone(axes, "slice_like", "axes");
  Shape o = in;
  std::vector<int> list;
  if (axes.empty()) {
    WEFT_CHECK(in.ndim() == like.ndim(), kShape)
        << "slice_like: with axes=() input 'shape_like' must have as many dimensions as 'data' (" << in.ndim()
        << "), got shape " << like.ToString();
    for (int i = 0; i < in.ndim(); ++i) list.push_back(i);
  } else {
    for (int64_t a : axes) {
      const int ax = NormalizeAxis(a, in.ndim(), "slice_like", "data", 0, "axes");
      WEFT_CHECK(ax < like.ndim(), kShape) << "slice_like: axis " << a << " is out of range for input 'shape_like' of shape "
                                           << like.ToString();
      list.push_back(ax);
    }
  }
  for (int ax : list) {
    WEFT_CHECK(like[ax] <= in[ax], kShape)
        << "slice_like: input 'shape_like' of shape " << like.ToString() << " is larger than 'data' of shape "
        << in.ToString() << " on axis " << ax;
    o[ax] = like[ax];
  }
  return o;
}

ViewPlan SliceLikePlan(const Params&, const Shape& in, const Shape& out) {
  ViewPlan v = Walk(out);
  v.src_stride = Strides(in);
  return v;
}

ViewPlan BackwardSliceLikePlan(const Params& p, const Shape& og, const Shape& data) {
  return Swapped(SliceLikePlan(p, data, og));
}

// ---- _split_v2 ----

int SplitV2NumOutputs(const Params& p) {
  const int64_t sections = p.GetInt("sections");
  if (sections > 0) return static_cast<int>(sections);
  const int n = static_cast<int>(p.GetTuple("indices").size());
  WEFT_CHECK(n > 0, kInvalidArgument) << "_split_v2: give indices (the split points) or sections > 0";
  return n;
}

SplitV2Parts SplitV2Ranges(const Params& p, const Shape& in) {
  SplitV2Parts r;
  r.axis = NormalizeAxis(p.GetInt("axis"), in.ndim(), "_split_v2", "data");
  const int64_t dim = in[r.axis], sections = p.GetInt("sections");
  if (sections > 0) {
    WEFT_CHECK(dim % sections == 0, kShape) << "_split_v2: sections " << sections << " do not divide axis " << r.axis
                                            << " of input 'data' of shape " << in.ToString() << " equally";
    for (int64_t i = 0; i < sections; ++i) {
      r.begin.push_back(i * (dim / sections));
      r.end.push_back((i + 1) * (dim / sections));
    }
  } else {
    const std::vector<int64_t>& idx = p.GetTuple("indices");
    CheckNoNone(idx, "_split_v2", "indices");
    WEFT_CHECK(!idx.empty(), kInvalidArgument) << "_split_v2: give indices (the split points) or sections > 0";
    for (size_t i = 0; i < idx.size(); ++i) {
      const int64_t b = idx[i], e = i + 1 < idx.size() ? idx[i + 1] : dim;
      WEFT_CHECK(b >= 0 && b <= e && e <= dim, kInvalidArgument)
          << "_split_v2: indices " << TupleString(idx) << " must be increasing and within the " << dim
          << " elements of axis " << r.axis << " of input 'data' of shape " << in.ToString();
      r.begin.push_back(b);
      r.end.push_back(e);
    }
  }
  return r;
}

std::vector<Shape> SplitV2Shapes(const Params& p, const Shape& in) {
  const SplitV2Parts r = SplitV2Ranges(p, in);
  const bool squeeze = p.GetBool("squeeze_axis");
  std::vector<Shape> out;
  for (size_t i = 0; i < r.begin.size(); ++i) {
    Shape s;
    for (int d = 0; d < in.ndim(); ++d) {
      if (d != r.axis) {
        s.push_back(in[d]);
        continue;
      }
      const int64_t len = r.end[i] - r.begin[i];
      WEFT_CHECK(!squeeze || len == 1, kShape) << "_split_v2: squeeze_axis needs parts of size 1 on axis " << r.axis
                                               << ", part " << i << " has " << len;
      if (!squeeze) s.push_back(len);
    }
    out.push_back(s);
  }
  return out;
}

ViewPlan SplitV2Plan(const Params& p, const Shape& in, int i) {
  const SplitV2Parts r = SplitV2Ranges(p, in);
  Shape part = in;
  part[r.axis] = r.end[static_cast<size_t>(i)] - r.begin[static_cast<size_t>(i)];
  ViewPlan v = Walk(part);
  v.src_stride = Strides(in);
  v.src_off = r.begin[static_cast<size_t>(i)] * v.src_stride[static_cast<size_t>(r.axis)];
  return v;
}

// ---- Crop ----

Shape CropShape(const Params& p, const Shape& in, const Shape& like, int64_t* top, int64_t* left) {
  WEFT_CHECK(in.ndim() == 4, kShape) << "Crop: input 'data' must be 4-D (N, C, H, W), got shape " << in.ToString();
  int64_t h, w;
  if (p.GetInt("num_args") == 2) {
    WEFT_CHECK(like.ndim() == 4, kShape) << "Crop: input 'crop_like' must be 4-D (N, C, H, W), got shape "
                                         << like.ToString();
    h = like[2];
    w = like[3];
  } else {
    const std::vector<int64_t>& hw = p.GetTuple("h_w");
    WEFT_CHECK(hw.size() == 2, kInvalidArgument) << "Crop: h_w must be (height, width), got " << TupleString(hw);
    h = hw[0];
    w = hw[1];
  }
  WEFT_CHECK(h > 0 && w > 0 && h <= in[2] && w <= in[3], kShape)
      << "Crop: the crop size (" << h << ", " << w << ") must be positive and fit input 'data' of shape "
      << in.ToString();
  if (p.GetBool("center_crop")) {
    *top = (in[2] - h) / 2;
    *left = (in[3] - w) / 2;
  } else {
    const std::vector<int64_t>& off = p.GetTuple("offset");
    WEFT_CHECK(off.size() == 2, kInvalidArgument) << "Crop: offset must be (top, left), got " << TupleString(off);
    *top = off[0];
    *left = off[1];
    WEFT_CHECK(*top >= 0 && *left >= 0 && *top + h <= in[2] && *left + w <= in[3], kShape)
        << "Crop: offset " << TupleString(off) << " with crop size (" << h << ", " << w
        << ") goes outside input 'data' of shape " << in.ToString();
  }
  return Shape({in[0], in[1], h, w});
}

ViewPlan CropPlan(const Params& p, const Shape& in, const Shape& out) {
  int64_t top = 0, left = 0;
  CropShape(p, in, Shape({out[0], out[1], out[2], out[3]}), &top, &left);
  ViewPlan v = Walk(out);
  v.src_stride = Strides(in);
  v.src_off = top * in[3] + left;
  return v;
}

ViewPlan BackwardCropPlan(const Params& p, const Shape& og, const Shape& data) {
  return Swapped(CropPlan(p, data, og));
}

}  // namespace tensor
}  // namespace weft
