// GPU kernels of joining and splitting (core/op/shape/concat.cc: Concat, stack,
// SliceChannel; _backward_Concat in core/op/shape/shape_backward.cc) and of basic
// slicing (core/op/shape/slice.cc: slice, slice_axis, _slice_assign,
// _slice_assign_scalar; _backward_slice_axis). Joins and slices are strided
// copies; the assignments and _backward_slice_axis are one kernel that writes
// every output element from the region source or from outside it.
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/common/tensor_util.cuh"
#include "core/op/shape/slice_rules.h"

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

using tensor::SliceView;

Dims ToDimsV(const std::vector<int64_t>& v) { return ToDims(Shape(v)); }

void SliceForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const SliceView v = tensor::PlanSlice(p, in[0].shape, "data");
  StridedCopyGPU(ctx, out[0].dtype, v.shape, in[0].data, v.offset, v.stride, out[0].data, 0, RowMajor(v.shape), req[0]);
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

// out (req)= lhs (or `outside` where lhs is null) with the slice v replaced
// by region (or `inside` where region is null).
void AssignRegion(const OpContext& ctx, const SliceView& v, const TensorView* lhs, const void* region,
                  double inside, double outside, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const Dims shape = ToDims(out.shape), begin = ToDimsV(v.begin), step = ToDimsV(v.step), count = ToDimsV(v.shape);
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
  const SliceView v = tensor::PlanSlice(p, in[0].shape, "lhs");
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
  AssignRegion(ctx, v, &in[0], rhs, 0.0, 0.0, req[0], out[0]);
}

void SliceAssignScalar(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const SliceView v = tensor::PlanSlice(p, in[0].shape, "data");
  AssignRegion(ctx, v, &in[0], nullptr, p.GetFloat("scalar"), 0.0, req[0], out[0]);
}

void SliceAxis(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  int axis;
  int64_t b, n;
  tensor::PlanSliceAxis(p, in[0].shape, &axis, &b, &n);
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
  SliceView v;  // only the region's begin, step and shape are read
  for (int k = 0; k < d.ndim(); ++k) {
    v.begin.push_back(k == axis ? begin : 0);
    v.step.push_back(1);
    v.shape.push_back(in[0].shape[k]);
  }
  AssignRegion(ctx, v, nullptr, in[0].data, 0.0, 0.0, req[0], out[0]);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ConcatGpu, Concat)  // Concat
WEFT_GPU_KERNEL_EXPORT(BackwardConcatGpu, ConcatBackward)  // _backward_Concat
WEFT_GPU_KERNEL_EXPORT(StackGpu, Stack)  // stack
WEFT_GPU_KERNEL_EXPORT(SliceChannelGpu, Split)  // SliceChannel
WEFT_GPU_KERNEL_EXPORT(SliceGpu, SliceForward)  // slice
WEFT_GPU_KERNEL_EXPORT(SliceAxisGpu, SliceAxis)  // slice_axis
WEFT_GPU_KERNEL_EXPORT(BackwardSliceAxisGpu, SliceAxisBackward)  // _backward_slice_axis
WEFT_GPU_KERNEL_EXPORT(SliceAssignGpu, SliceAssign)  // _slice_assign
WEFT_GPU_KERNEL_EXPORT(SliceAssignScalarGpu, SliceAssignScalar)  // _slice_assign_scalar

}  // namespace cuda
}  // namespace weft
