// GPU kernels of joining and splitting (core/op/concat.cc: Concat, stack,
// SliceChannel; _backward_Concat in core/op/backward_misc.cc) and of basic
// slicing (core/op/slice.cc: slice, slice_axis, _slice_assign,
// _slice_assign_scalar; _backward_slice_axis). Joins and slices are strided
// copies; the assignments and _backward_slice_axis are one kernel that writes
// every output element from the region source or from outside it.
#include <algorithm>
#include <string>
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/cuda/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

// out[o, off_i : off_i + inner_i] (req)= parts[i][o, :] (tensor_cpu::ConcatCPU).
void ConcatParts(const OpContext& ctx, const std::vector<TensorView>& parts, int64_t outer, OpReq req,
                 const TensorView& out) {
  if (outer == 0 || req == OpReq::kNull) return;
  const int64_t row = out.Size() / outer;
  int64_t off = 0;
  for (const TensorView& p : parts) {
    const int64_t inner = p.Size() / outer;
    StridedCopyGPU(ctx, out.dtype, {outer, inner}, p.data, 0, {inner, 1}, out.data, off, {row, 1}, req);
    off += inner;
  }
}

// outs[i][o, :] (req[i])= in[o, off_i : off_i + inner_i] (tensor_cpu::SplitCPU).
void SplitParts(const OpContext& ctx, const TensorView& in, int64_t outer, const std::vector<OpReq>& req,
                const std::vector<TensorView>& outs) {
  if (outer == 0) return;
  const int64_t row = in.Size() / outer;
  int64_t off = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    const int64_t inner = outs[i].Size() / outer;
    StridedCopyGPU(ctx, in.dtype, {outer, inner}, in.data, off, {row, 1}, outs[i].data, 0, {inner, 1}, req[i]);
    off += inner;
  }
}

void Concat(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  const int axis = tensor::NormalizeAxis(p.GetInt("dim"), out[0].ndim(), "Concat", "arg0", 0, "dim");
  ConcatParts(ctx, in, out[0].shape.ProdRange(0, axis), req[0], out[0]);
}

void ConcatBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int axis = tensor::NormalizeAxis(p.GetInt("dim"), in[0].ndim(), "_backward_Concat", "out_grad", 0, "dim");
  SplitParts(ctx, in[0], in[0].shape.ProdRange(0, axis), req, out);
}

void Stack(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[0].ndim(), "stack", "arg0", 1);
  ConcatParts(ctx, in, in[0].shape.ProdRange(0, axis), req[0], out[0]);
}

void Split(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[0].ndim(), "split", "data");
  SplitParts(ctx, in[0], in[0].shape.ProdRange(0, axis), req, out);
}

// ---- slices ----

// A slice of every dim of a contiguous array: element begin[k] + q * step[k]
// for q in [0, count[k]) (dims not sliced: 0, 1, size).
struct SliceDims {
  std::vector<int64_t> begin, step, count;
};

// Python's slice.indices(len), as SliceDim in core/op/slice.cc.
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

// PlanSlice of core/op/slice.cc (its checks ran in shape inference).
SliceDims PlanSlice(const Params& p, const Shape& d) {
  const std::vector<int64_t>& begin = p.GetTuple("begin");
  const std::vector<int64_t>& end = p.GetTuple("end");
  const std::vector<int64_t>& step = p.GetTuple("step");
  WEFT_CHECK(begin.size() == end.size() && static_cast<int>(begin.size()) <= d.ndim() &&
                 (step.empty() || step.size() == begin.size()),
             kInvalidArgument)
      << p.op()->name << ": begin " << tensor::TupleString(begin) << ", end " << tensor::TupleString(end)
      << " and step " << tensor::TupleString(step) << " do not fit shape " << d.ToString();
  SliceDims s;
  for (int k = 0; k < d.ndim(); ++k) {
    int64_t b = 0, st = 1, n = d[k];
    if (static_cast<size_t>(k) < begin.size()) {
      st = step.empty() || step[static_cast<size_t>(k)] == kNoneDim ? 1 : step[static_cast<size_t>(k)];
      WEFT_CHECK(st != 0, kInvalidArgument) << p.op()->name << ": step[" << k << "] cannot be 0";
      SliceDim(d[k], begin[static_cast<size_t>(k)], end[static_cast<size_t>(k)], st, &b, &n);
    }
    s.begin.push_back(b);
    s.step.push_back(st);
    s.count.push_back(n);
  }
  return s;
}

Dims ToDimsV(const std::vector<int64_t>& v) { return ToDims(Shape(v)); }

void SliceForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const SliceDims s = PlanSlice(p, in[0].shape);
  const std::vector<int64_t> istride = RowMajor(in[0].shape.dims());
  int64_t offset = 0;
  std::vector<int64_t> stride(istride.size());
  for (size_t k = 0; k < istride.size(); ++k) {
    if (s.count[k] > 0) offset += s.begin[k] * istride[k];
    stride[k] = istride[k] * s.step[k];
  }
  StridedCopyGPU(ctx, out[0].dtype, s.count, in[0].data, offset, stride, out[0].data, 0, RowMajor(s.count), req[0]);
}

// out[i] (req)= region[q] where output index i is element q of the slice
// (begin, step, count) of `shape`, else lhs[i]; a null region or lhs reads
// `scalar` instead. One index per output element, so out may be lhs.
template <typename T>
void AssignRegionT(const OpContext& ctx, int64_t n, const T* lhs, const T* region, T scalar, Dims shape, Dims begin,
                   Dims step, Dims count, OpReq req, T* out) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    int64_t rem = i, q = 0, mul = 1;
    bool inside = true;
    for (int k = shape.ndim - 1; k >= 0 && inside; --k) {
      const int64_t pos = rem % shape.d[k] - begin.d[k];
      rem /= shape.d[k];
      const int64_t j = pos / step.d[k];
      inside = pos % step.d[k] == 0 && j >= 0 && j < count.d[k];
      q += j * mul;
      mul *= count.d[k];
    }
    const T v = inside ? (region ? region[q] : scalar) : (lhs ? lhs[i] : scalar);
    Assign(out, i, req, v);
  });
}

// out (req)= lhs (or `outside` where lhs is null) with the slice s replaced
// by region (or `inside` where region is null).
void AssignRegion(const OpContext& ctx, const SliceDims& s, const TensorView* lhs, const void* region,
                  double inside, double outside, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const Dims shape = ToDims(out.shape), begin = ToDimsV(s.begin), step = ToDimsV(s.step), count = ToDimsV(s.count);
  WEFT_GPU_ALL_SWITCH(out.dtype, "slice assign", T, {
    const T* l = lhs ? lhs->ptr<T>() : nullptr;
    const T* r = static_cast<const T*>(region);
    // Only one of the scalars is read: outside when lhs is null, else inside.
    const T scalar = CastDouble<T>(lhs ? inside : outside);
    AssignRegionT<T>(ctx, out.Size(), l, r, scalar, shape, begin, step, count, req, out.ptr<T>());
  });
}

void SliceAssign(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const SliceDims s = PlanSlice(p, in[0].shape);
  const void* rhs = in[1].data;
  // rhs overlapping out (a[1:] = a[:-1]) is staged first, as on the CPU.
  const size_t es = DTypeSize(out[0].dtype);
  const size_t rb = static_cast<size_t>(in[1].Size()) * es, ob = static_cast<size_t>(out[0].Size()) * es;
  const char* r = static_cast<const char*>(in[1].data);
  const char* o = static_cast<const char*>(out[0].data);
  if (rb > 0 && r < o + ob && o < r + rb) {
    void* staged = Scratch(ctx, rb);
    gpu::MemcpyAsync(staged, rhs, rb, StreamOf(ctx));
    rhs = staged;
  }
  AssignRegion(ctx, s, &in[0], rhs, 0.0, 0.0, req[0], out[0]);
}

void SliceAssignScalar(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const SliceDims s = PlanSlice(p, in[0].shape);
  AssignRegion(ctx, s, &in[0], nullptr, p.GetFloat("scalar"), 0.0, req[0], out[0]);
}

// slice_axis's (axis, begin, length) (PlanSliceAxis in core/op/slice.cc).
void PlanSliceAxis(const Params& p, const Shape& d, const char* op, int* axis, int64_t* b, int64_t* n) {
  *axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), op, "data");
  const int64_t len = d[*axis];
  int64_t begin = p.GetInt("begin");
  int64_t end = p.IsNone("end") ? len : p.GetInt("end");
  if (begin < 0) begin += len;
  if (end < 0) end += len;
  WEFT_CHECK(begin >= 0 && begin <= len && end >= begin && end <= len, kInvalidArgument)
      << op << ": begin=" << p.GetInt("begin") << ", end="
      << (p.IsNone("end") ? std::string("None") : std::to_string(p.GetInt("end")))
      << " is not a valid range of axis " << *axis << " (size " << len << ") of input 'data' with shape "
      << d.ToString();
  *b = begin;
  *n = end - begin;
}

void SliceAxis(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  int axis;
  int64_t b, n;
  PlanSliceAxis(p, in[0].shape, "slice_axis", &axis, &b, &n);
  const int64_t outer = in[0].shape.ProdRange(0, axis);
  const int64_t inner = in[0].shape.ProdRange(axis + 1, in[0].ndim());
  const int64_t len = in[0].shape[axis];
  StridedCopyGPU(ctx, out[0].dtype, {outer, n * inner}, in[0].data, b * inner, {len * inner, 1}, out[0].data, 0,
                 {n * inner, 1}, req[0]);
}

// Zeros of data's shape with out_grad at [begin, begin + out_grad.shape[axis])
// of axis (tensor_cpu::SliceAxisBackwardCPU).
void SliceAxisBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const Shape& d = in[1].shape;
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "_backward_slice_axis", "data");
  int64_t begin = p.GetInt("begin");
  if (begin < 0) begin += d[axis];
  SliceDims s;
  for (int k = 0; k < d.ndim(); ++k) {
    s.begin.push_back(k == axis ? begin : 0);
    s.step.push_back(1);
    s.count.push_back(in[0].shape[k]);
  }
  AssignRegion(ctx, s, nullptr, in[0].data, 0.0, 0.0, req[0], out[0]);
}

}  // namespace

WEFT_REGISTER_GPU_KERNEL("Concat", Concat);
WEFT_REGISTER_GPU_KERNEL("_backward_Concat", ConcatBackward);
WEFT_REGISTER_GPU_KERNEL("stack", Stack);
WEFT_REGISTER_GPU_KERNEL("SliceChannel", Split);
WEFT_REGISTER_GPU_KERNEL("slice", SliceForward);
WEFT_REGISTER_GPU_KERNEL("slice_axis", SliceAxis);
WEFT_REGISTER_GPU_KERNEL("_backward_slice_axis", SliceAxisBackward);
WEFT_REGISTER_GPU_KERNEL("_slice_assign", SliceAssign);
WEFT_REGISTER_GPU_KERNEL("_slice_assign_scalar", SliceAssignScalar);

}  // namespace cuda
}  // namespace weft
