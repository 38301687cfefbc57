// Basic slicing: slice (begin/end/step tuples with None entries, Python
// semantics), slice_axis, and the two ops behind `a[...] = value` in the
// Python binding: _slice_assign and _slice_assign_scalar (called with out=lhs,
// in-place pair (0, 0)). A slice is a strided view (offset + strides), copied
// with the shared strided-copy kernel (core/op/common/copy_cpu.cc).
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/shape/concat_slice_gpu.h"
#include "core/op/op_util.h"
#include "core/op/shape/slice_rules.h"

namespace weft {
namespace {

using tensor::PlanSlice;
using tensor::PlanSliceAxis;
using tensor::SliceView;
using tensor_cpu::ContiguousStrides;

// Clamps one (begin, end, step) like Python's slice.indices(len); None is kNoneDim.
void SliceDim(int64_t len, int64_t begin, int64_t end, int64_t step, int64_t* b, int64_t* n) {
  const int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? len : len - 1;
  auto clamp = [&](int64_t v, int64_t dflt) {
    if (v == kNoneDim) return dflt;
    return v < 0 ? std::max(v + len, lower) : std::min(v, upper);
  };
  *b = clamp(begin, step > 0 ? lower : upper);
  const int64_t e = clamp(end, step > 0 ? upper : lower);
  if (step > 0) *n = e > *b ? (e - *b - 1) / step + 1 : 0;
  else *n = *b > e ? (*b - e - 1) / (-step) + 1 : 0;
}

}  // namespace

namespace tensor {

SliceView PlanSlice(const Params& p, const Shape& d, const std::string& input) {
  const std::string& op = p.op()->name;
  const std::vector<int64_t>& begin = p.GetTuple("begin");
  const std::vector<int64_t>& end = p.GetTuple("end");
  const std::vector<int64_t>& step = p.GetTuple("step");
  WEFT_CHECK(begin.size() == end.size(), kInvalidArgument)
      << op << ": begin " << tensor::TupleString(begin) << " and end " << tensor::TupleString(end)
      << " must have the same length";
  WEFT_CHECK(step.empty() || step.size() == begin.size(), kInvalidArgument)
      << op << ": step " << tensor::TupleString(step) << " must be empty or as long as begin "
      << tensor::TupleString(begin);
  WEFT_CHECK(static_cast<int>(begin.size()) <= d.ndim(), kInvalidArgument)
      << op << ": begin " << tensor::TupleString(begin) << " has more entries than input '" << input
      << "' with shape " << d.ToString() << " has dims";
  SliceView v;
  v.stride = ContiguousStrides(d.dims());
  v.shape = d.dims();
  v.begin.assign(v.shape.size(), 0);
  v.step.assign(v.shape.size(), 1);
  for (size_t i = 0; i < begin.size(); ++i) {
    const int64_t s = step.empty() || step[i] == kNoneDim ? 1 : step[i];
    WEFT_CHECK(s != 0, kInvalidArgument) << op << ": step[" << i << "] cannot be 0";
    int64_t b, n;
    SliceDim(d[static_cast<int>(i)], begin[i], end[i], s, &b, &n);
    v.shape[i] = n;
    v.begin[i] = b;
    v.step[i] = s;
    if (n > 0) v.offset += b * v.stride[i];
    v.stride[i] *= s;
  }
  return v;
}

}  // namespace tensor

namespace {

// Copies src (contiguous, `shape`) into the slice view of dst, staging src
// when it overlaps dst (e.g. a[1:] = a[:-1]).
void AssignRegion(const SliceView& v, const TensorView& src, const TensorView& dst) {
  const size_t es = DTypeSize(dst.dtype);
  const char* s = static_cast<const char*>(src.data);
  const char* d = static_cast<const char*>(dst.data);
  const size_t sb = static_cast<size_t>(src.Size()) * es, db = static_cast<size_t>(dst.Size()) * es;
  std::unique_ptr<char[]> staged;
  if (s < d + db && d < s + sb) {
    staged.reset(new char[sb]);
    std::memcpy(staged.get(), s, sb);
    s = staged.get();
  }
  tensor_cpu::StridedCopy(es, v.shape, s, 0, ContiguousStrides(v.shape), dst.data, v.offset, v.stride);
}

void CopyBase(const TensorView& from, const TensorView& to) {
  if (from.data != to.data)
    std::memcpy(to.data, from.data, static_cast<size_t>(to.Size()) * DTypeSize(to.dtype));
}

OpDef& AddSliceParams(OpDef& op) {
  return op
      .add_required_param("begin", ParamType::kShape,
                          "Start index per axis (None: from the start, or the end for a negative step).")
      .add_required_param("end", ParamType::kShape,
                          "Stop index per axis, exclusive (None: to the end, or the start for a negative step).")
      .add_param("step", ParamType::kShape, "()", "Step per axis (None or () : 1).");
}

WEFT_REGISTER_OP(slice_decl, "slice");
[[maybe_unused]] OpDef& reg_slice = AddSliceParams(
    slice_decl.set_compute_gpu(WEFT_GPU(cuda::SliceGpu)).add_method("slice")
    .add_alias("crop")
    .describe("Slices a region of the array like Python's a[b0:e0:s0, b1:e1:s1, ...].\n\n"
              "begin, end and step may be shorter than ndim (the other axes are kept whole) and may "
              "hold None; negative indices count from the end and are clamped like Python's.")
    .add_input("data"))
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, Shape(PlanSlice(p, (*in)[0], "data").shape), "slice: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      SliceView v = PlanSlice(p, in[0].shape, "data");
      tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
        tensor_cpu::StridedCopy(DTypeSize(o.dtype), v.shape, in[0].data, v.offset, v.stride, o.data, 0,
                                ContiguousStrides(v.shape));
      });
    })
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // out_grad written into the region of zeros (MXNet's _backward_slice)
      return {b("_slice_assign", {b.Zeros(b.in(0)), og[0]}, b.Attrs("_slice_assign"))};
    });

}  // namespace

// ---- slice_axis ----

namespace tensor {

void PlanSliceAxis(const Params& p, const Shape& d, int* axis, int64_t* b, int64_t* n) {
  *axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "slice_axis", "data");
  const int64_t len = d[*axis];
  int64_t begin = p.GetInt("begin");
  int64_t end = p.IsNone("end") ? len : p.GetInt("end");
  if (begin < 0) begin += len;
  if (end < 0) end += len;
  WEFT_CHECK(begin >= 0 && begin <= len && end >= begin && end <= len, kInvalidArgument)
      << "slice_axis: begin=" << p.GetInt("begin") << ", end="
      << (p.IsNone("end") ? std::string("None") : std::to_string(p.GetInt("end")))
      << " is not a valid range of axis " << *axis << " (size " << len << ") of input 'data' with shape "
      << d.ToString();
  *b = begin;
  *n = end - begin;
}

}  // namespace tensor

namespace {

WEFT_REGISTER_OP("slice_axis").set_compute_gpu(WEFT_GPU(cuda::SliceAxisGpu)).add_method("slice_axis")
    .describe("Slices the array along one axis: data[..., begin:end, ...].\n\n"
              "Negative begin/end count from the end; end=None means the axis size.")
    .add_input("data")
    .add_required_param("axis", ParamType::kInt, "The axis to slice (negative counts from the end).")
    .add_required_param("begin", ParamType::kInt, "The first index (negative counts from the end).")
    .add_optional_param("end", ParamType::kInt, "The stop index, exclusive; None: the axis size.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      int axis;
      int64_t b, n;
      PlanSliceAxis(p, (*in)[0], &axis, &b, &n);
      Shape o = (*in)[0];
      o[axis] = n;
      AssignShape(out, 0, o, "slice_axis: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      int axis;
      int64_t b, n;
      PlanSliceAxis(p, in[0].shape, &axis, &b, &n);
      const int64_t outer = in[0].shape.ProdRange(0, axis);
      const int64_t inner = in[0].shape.ProdRange(axis + 1, in[0].ndim());
      const int64_t len = in[0].shape[axis];
      tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
        tensor_cpu::StridedCopy(DTypeSize(o.dtype), {outer, n * inner}, in[0].data, b * inner, {len * inner, 1},
                                o.data, 0, {n * inner, 1});
      });
    })
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {OutputOf(b.NodeWithAttrs("_backward_slice_axis", {og[0], b.in(0)}))};
    });

// ---- _slice_assign / _slice_assign_scalar ----

WEFT_REGISTER_OP(slice_assign_decl, "_slice_assign");
[[maybe_unused]] OpDef& reg_slice_assign = AddSliceParams(
    slice_assign_decl.set_compute_gpu(WEFT_GPU(cuda::SliceAssignGpu))
    .add_alias("_crop_assign")
    .describe("Returns lhs with the region lhs[begin:end:step] replaced by rhs (the op behind "
              "`a[1:3] = b`; the binding calls it with out=lhs, so it runs in place).\n\n"
              "rhs must have exactly the shape of the region.")
    .add_input("lhs")
    .add_input("rhs"))
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() && (*out)[0].known()) (*in)[0] = (*out)[0];
      if (!(*in)[0].known()) return false;
      SliceView v = PlanSlice(p, (*in)[0], "lhs");
      AssignShape(out, 0, (*in)[0], "_slice_assign: output");
      if ((*in)[1].known()) {
        WEFT_CHECK((*in)[1] == Shape(v.shape), kShape)
            << "_slice_assign: input 'rhs' has shape " << (*in)[1].ToString() << ", expected the region shape "
            << Shape(v.shape).ToString() << " of lhs " << (*in)[0].ToString();
      }
      (*in)[1] = Shape(v.shape);
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      SliceView v = PlanSlice(p, in[0].shape, "lhs");
      tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
        CopyBase(in[0], o);
        AssignRegion(v, in[1], o);
      });
    })
    .add_inplace(0, 0);

WEFT_REGISTER_OP(slice_assign_scalar_decl, "_slice_assign_scalar");
[[maybe_unused]] OpDef& reg_slice_assign_scalar = AddSliceParams(
    slice_assign_scalar_decl.set_compute_gpu(WEFT_GPU(cuda::SliceAssignScalarGpu))
    .add_alias("_crop_assign_scalar")
    .describe("Returns data with the region data[begin:end:step] set to `scalar` (the op behind "
              "`a[1:3] = 5`; called with out=data, so it runs in place).")
    .add_input("data"))
    .add_param("scalar", ParamType::kFloat, "0", "The value to assign (converted to data's dtype).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() && (*out)[0].known()) (*in)[0] = (*out)[0];
      if (!(*in)[0].known()) return false;
      PlanSlice(p, (*in)[0], "data");
      AssignShape(out, 0, (*in)[0], "_slice_assign_scalar: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      SliceView v = PlanSlice(p, in[0].shape, "data");
      tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
        CopyBase(in[0], o);
        tensor_cpu::StridedFill(o.dtype, p.GetFloat("scalar"), v.shape, o.data, v.offset, v.stride);
      });
    })
    .add_inplace(0, 0);

}  // namespace
}  // namespace weft
