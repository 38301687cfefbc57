// GPU kernels of the index-based ops (core/op/index/indexing.cc): take, pick,
// one_hot, gather_nd, _scatter_set_nd, and of their gradients
// (core/op/index/indexing_backward.cc): _backward_take, _backward_pick,
// _backward_gather_nd. Indices of any dtype are first converted to int64 in
// scratch memory (the CPU's ReadIndices rule), so the data kernels are
// instantiated once per element size (gathers) or once (scatters, which
// accumulate in float64 like the CPU).
//
// Out-of-range indices cannot raise an error from the device: take's
// mode='raise' and gather_nd / _scatter_set_nd / _backward_gather_nd (which
// raise on the CPU) count a negative index from the end once and clip what is
// still out of range. Scatters are written one output element at a time: each
// element loops over the indices that hit it, accumulating in float64 like the
// CPU (and in the same order), so repeated indices need no atomics.
#include <cstring>
#include <string>
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

int ModeOf(const Params& p) {
  const std::string& m = p.GetString("mode");
  return m == "wrap" ? kModeWrap : (m == "raise" ? kModeRaise : kModeClip);
}

size_t Bytes(int64_t count, size_t elem) { return static_cast<size_t>(count) * elem; }

size_t OutBytes(const TensorView& out) { return Bytes(out.Size(), DTypeSize(out.dtype)); }

// Gathers are moves: they write into out, or for kAddTo into the scratch
// piece tmp that is then added into out (the CPU's WriteWithReq).
void* MoveTarget(OpReq req, const TensorView& out, void* tmp) { return req == OpReq::kAddTo ? tmp : out.data; }
void FinishMove(const OpContext& ctx, OpReq req, const TensorView& out, void* tmp) {
  if (req == OpReq::kAddTo) CopyGPU(ctx, TensorView{tmp, out.dtype, out.shape}, OpReq::kAddTo, out);
}

// ---- take ----

template <typename E>
void TakeT(const OpContext& ctx, int64_t size, const E* a, const int64_t* idx, int64_t ni, int64_t n, int64_t inner,
           int mode, E* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t i) {
    const int64_t r = i / inner, k = i % inner;
    const int64_t j = FixIndexGPU(idx[r % ni], n, mode);
    out[i] = a[((r / ni) * n + j) * inner + k];
  });
}

void Take(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  const TensorView& a = in[0];
  tensor::CheckMinNDim(a.shape, 1, "take", "a");
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), a.ndim(), "take", "a");
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t n = a.shape[axis], inner = a.shape.ProdRange(axis + 1, a.ndim()), ni = in[1].Size();
  WEFT_CHECK(n > 0, kInvalidArgument) << "cannot take from an empty axis " << axis << " of input 'a'";
  const std::vector<void*> s = ScratchPieces(ctx, {Bytes(ni, 8), req[0] == OpReq::kAddTo ? OutBytes(out[0]) : 0});
  int64_t* idx = static_cast<int64_t*>(s[0]);
  IndicesToInt64GPU(ctx, in[1], idx);
  void* dst = MoveTarget(req[0], out[0], s[1]);
  WEFT_GPU_MOVE_SWITCH(out[0].dtype, "take", E, {
    TakeT<E>(ctx, out[0].Size(), a.ptr<E>(), idx, ni, n, inner, ModeOf(p), static_cast<E*>(dst));
  });
  FinishMove(ctx, req[0], out[0], s[1]);
}

// acc[o, j, k] = sum of g[o, i, k] over the indices i that take mapped to j.
void TakeBackwardKernel(const OpContext& ctx, int64_t size, const double* g, const int64_t* idx, int64_t ni,
                        int64_t n, int64_t inner, int mode, double* acc) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    const int64_t k = e % inner, j = (e / inner) % n, o = e / (inner * n);
    const double* gr = g + o * ni * inner + k;
    double v = 0;
    for (int64_t i = 0; i < ni; ++i)
      if (FixIndexGPU(idx[i], n, mode) == j) v += gr[i * inner];
    acc[e] = v;
  });
}

// The scatters accumulate in float64 like the CPU: g converted to float64,
// the result stored from float64 under req (one kernel for every dtype).
struct ScatterBuffers {
  int64_t* idx;
  double* g;
  double* acc;
};

ScatterBuffers ScatterScratch(const OpContext& ctx, const TensorView& indices, int64_t extra_idx, const TensorView& g,
                              const TensorView& out) {
  const std::vector<void*> s =
      ScratchPieces(ctx, {Bytes(indices.Size() + extra_idx, 8), Bytes(g.Size(), 8), Bytes(out.Size(), 8)});
  ScatterBuffers b{static_cast<int64_t*>(s[0]), static_cast<double*>(s[1]), static_cast<double*>(s[2])};
  IndicesToInt64GPU(ctx, indices, b.idx);
  ValuesToDoubleGPU(ctx, g, b.g);
  return b;
}

void TakeBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape& s = out[0].shape;
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[2].ndim(), "_backward_take", "a");
  const int64_t n = s[axis], inner = s.ProdRange(axis + 1, s.ndim()), ni = in[1].Size();
  const ScatterBuffers b = ScatterScratch(ctx, in[1], 0, in[0], out[0]);
  TakeBackwardKernel(ctx, out[0].Size(), b.g, b.idx, ni, n, inner, ModeOf(p), b.acc);
  DoublesToGPU(ctx, b.acc, req[0], out[0]);
}

// ---- pick ----

template <typename E>
void PickT(const OpContext& ctx, int64_t size, const E* data, const int64_t* idx, int64_t n, int64_t inner, int mode,
           E* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t r) {
    const int64_t j = FixIndexGPU(idx[r], n, mode);
    out[r] = data[((r / inner) * n + j) * inner + r % inner];
  });
}

void Pick(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  const Shape& d = in[0].shape;
  WEFT_CHECK(!p.IsNone("axis"), kInvalidArgument) << "pick: axis=None is not supported; give an axis";
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "pick", "data");
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t n = d[axis], inner = d.ProdRange(axis + 1, d.ndim());
  WEFT_CHECK(n > 0, kInvalidArgument) << "cannot pick from an empty axis " << axis << " of input 'data'";
  const std::vector<void*> s =
      ScratchPieces(ctx, {Bytes(in[1].Size(), 8), req[0] == OpReq::kAddTo ? OutBytes(out[0]) : 0});
  int64_t* idx = static_cast<int64_t*>(s[0]);
  IndicesToInt64GPU(ctx, in[1], idx);
  void* dst = MoveTarget(req[0], out[0], s[1]);
  WEFT_GPU_MOVE_SWITCH(out[0].dtype, "pick", E, {
    PickT<E>(ctx, out[0].Size(), in[0].ptr<E>(), idx, n, inner, ModeOf(p), static_cast<E*>(dst));
  });
  FinishMove(ctx, req[0], out[0], s[1]);
}

// acc[o, j, k] = g[o, k] where pick read position j, else 0.
void PickBackwardKernel(const OpContext& ctx, int64_t size, const double* g, const int64_t* idx, int64_t n,
                        int64_t inner, int mode, double* acc) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    const int64_t k = e % inner, j = (e / inner) % n, o = e / (inner * n);
    const int64_t r = o * inner + k;
    acc[e] = FixIndexGPU(idx[r], n, mode) == j ? g[r] : 0.0;
  });
}

void PickBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape& s = out[0].shape;
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[2].ndim(), "_backward_pick", "data");
  const int64_t n = s[axis], inner = s.ProdRange(axis + 1, s.ndim());
  const ScatterBuffers b = ScatterScratch(ctx, in[1], 0, in[0], out[0]);
  PickBackwardKernel(ctx, out[0].Size(), b.g, b.idx, n, inner, ModeOf(p), b.acc);
  DoublesToGPU(ctx, b.acc, req[0], out[0]);
}

// ---- one_hot ----

template <typename E>
void OneHotT(const OpContext& ctx, int64_t size, const int64_t* idx, int64_t depth, E on, E off, E* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) { out[e] = idx[e / depth] == e % depth ? on : off; });
}

void OneHot(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t depth = p.GetInt("depth");
  const std::vector<void*> s =
      ScratchPieces(ctx, {Bytes(in[0].Size(), 8), req[0] == OpReq::kAddTo ? OutBytes(out[0]) : 0});
  int64_t* idx = static_cast<int64_t*>(s[0]);
  IndicesToInt64GPU(ctx, in[0], idx);
  // on_value and off_value in out's dtype (the CPU's StridedFill rule), as bits.
  uint64_t on = 0, off = 0;
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "one_hot", T, {
    const T on_t = CastDouble<T>(p.GetFloat("on_value")), off_t = CastDouble<T>(p.GetFloat("off_value"));
    std::memcpy(&on, &on_t, sizeof(T));
    std::memcpy(&off, &off_t, sizeof(T));
  });
  void* dst = MoveTarget(req[0], out[0], s[1]);
  WEFT_GPU_MOVE_SWITCH(out[0].dtype, "one_hot", E, {
    E on_e, off_e;
    std::memcpy(&on_e, &on, sizeof(E));
    std::memcpy(&off_e, &off, sizeof(E));
    OneHotT<E>(ctx, out[0].Size(), idx, depth, on_e, off_e, static_cast<E*>(dst));
  });
  FinishMove(ctx, req[0], out[0], s[1]);
}

// ---- gather_nd / _scatter_set_nd / _backward_gather_nd ----

// indices (M, Y...) address slices of data (its dims M.. are one slice);
// off[i] is the slice number of tuple i. A negative index counts from the
// end once; one still out of range is clipped (the CPU raises).
void NDOffsetsKernel(const OpContext& ctx, const int64_t* idx, int m, int64_t count, Dims data, int64_t* off) {
  Launch(ctx, count, [=] WEFT_HD(int64_t i) {
    int64_t o = 0;
    for (int j = 0; j < m; ++j) {
      const int64_t dim = data.d[j];
      int64_t v = idx[j * count + i];
      if (v < 0) v += dim;
      v = v < 0 ? 0 : (v >= dim ? dim - 1 : v);
      o = o * dim + v;
    }
    off[i] = o;
  });
}

struct NDPlan {
  int m = 0;
  int64_t count = 0, slice = 0;
};

NDPlan PlanND(const TensorView& indices, const Shape& data) {
  NDPlan p;
  p.m = static_cast<int>(indices.shape[0]);
  WEFT_CHECK(p.m >= 1 && p.m <= data.ndim(), kShape) << "indices.shape[0] = " << p.m << " does not fit data shape "
                                                     << data.ToString();
  p.count = indices.Size() / p.m;
  p.slice = data.ProdRange(p.m, data.ndim());
  return p;
}

// idx (int64 indices, then room for count offsets) -> the offsets.
int64_t* NDOffsets(const OpContext& ctx, const NDPlan& p, const TensorView& indices, const Shape& data, int64_t* idx) {
  int64_t* off = idx + indices.Size();
  IndicesToInt64GPU(ctx, indices, idx);
  NDOffsetsKernel(ctx, idx, p.m, p.count, ToDims(data), off);
  return off;
}

template <typename E>
void GatherNDT(const OpContext& ctx, int64_t size, const E* data, const int64_t* off, int64_t slice, E* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) { out[e] = data[off[e / slice] * slice + e % slice]; });
}

void GatherND(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const NDPlan p = PlanND(in[1], in[0].shape);
  const std::vector<void*> s = ScratchPieces(
      ctx, {Bytes(in[1].Size() + p.count, 8), req[0] == OpReq::kAddTo ? OutBytes(out[0]) : 0});
  const int64_t* off = NDOffsets(ctx, p, in[1], in[0].shape, static_cast<int64_t*>(s[0]));
  void* dst = MoveTarget(req[0], out[0], s[1]);
  WEFT_GPU_MOVE_SWITCH(out[0].dtype, "gather_nd", E, {
    GatherNDT<E>(ctx, out[0].Size(), in[0].ptr<E>(), off, p.slice, static_cast<E*>(dst));
  });
  FinishMove(ctx, req[0], out[0], s[1]);
}

// acc[e] = the sum of g's slices whose tuple addresses e's slice, in order.
void GatherNDBackwardKernel(const OpContext& ctx, int64_t size, const double* g, const int64_t* off, int64_t count,
                            int64_t slice, double* acc) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    const int64_t t = e / slice, s = e % slice;
    double v = 0;
    for (int64_t i = 0; i < count; ++i)
      if (off[i] == t) v += g[i * slice + s];
    acc[e] = v;
  });
}

void GatherNDBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const NDPlan p = PlanND(in[1], out[0].shape);
  const std::vector<void*> s = ScratchPieces(
      ctx, {Bytes(in[1].Size() + p.count, 8), Bytes(in[0].Size(), 8), Bytes(out[0].Size(), 8)});
  const int64_t* off = NDOffsets(ctx, p, in[1], out[0].shape, static_cast<int64_t*>(s[0]));
  double* g = static_cast<double*>(s[1]);
  double* acc = static_cast<double*>(s[2]);
  ValuesToDoubleGPU(ctx, in[0], g);
  GatherNDBackwardKernel(ctx, out[0].Size(), g, off, p.count, p.slice, acc);
  DoublesToGPU(ctx, acc, req[0], out[0]);
}

// out[e] = rhs at the last tuple addressing e's slice, else lhs[e] (later
// duplicates win, as on the CPU). One index per element, so out may be lhs.
template <typename E>
void ScatterSetNDT(const OpContext& ctx, int64_t size, const E* lhs, const E* rhs, const int64_t* off, int64_t count,
                   int64_t slice, E* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    const int64_t t = e / slice;
    int64_t hit = -1;
    for (int64_t i = count - 1; i >= 0 && hit < 0; --i)
      if (off[i] == t) hit = i;
    out[e] = hit >= 0 ? rhs[hit * slice + e % slice] : lhs[e];
  });
}

void ScatterSetND(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const NDPlan p = PlanND(in[2], out[0].shape);
  const std::vector<void*> s = ScratchPieces(
      ctx, {Bytes(in[2].Size() + p.count, 8), req[0] == OpReq::kAddTo ? OutBytes(out[0]) : 0});
  const int64_t* off = NDOffsets(ctx, p, in[2], out[0].shape, static_cast<int64_t*>(s[0]));
  void* dst = MoveTarget(req[0], out[0], s[1]);
  WEFT_GPU_MOVE_SWITCH(out[0].dtype, "_scatter_set_nd", E, {
    ScatterSetNDT<E>(ctx, out[0].Size(), in[0].ptr<E>(), in[1].ptr<E>(), off, p.count, p.slice,
                     static_cast<E*>(dst));
  });
  FinishMove(ctx, req[0], out[0], s[1]);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(TakeGpu, Take)  // take
WEFT_GPU_KERNEL_EXPORT(BackwardTakeGpu, TakeBackward)  // _backward_take
WEFT_GPU_KERNEL_EXPORT(PickGpu, Pick)  // pick
WEFT_GPU_KERNEL_EXPORT(BackwardPickGpu, PickBackward)  // _backward_pick
WEFT_GPU_KERNEL_EXPORT(OneHotGpu, OneHot)  // one_hot
WEFT_GPU_KERNEL_EXPORT(GatherNdGpu, GatherND)  // gather_nd
WEFT_GPU_KERNEL_EXPORT(BackwardGatherNdGpu, GatherNDBackward)  // _backward_gather_nd
WEFT_GPU_KERNEL_EXPORT(ScatterSetNdGpu, ScatterSetND)  // _scatter_set_nd

}  // namespace cuda
}  // namespace weft
