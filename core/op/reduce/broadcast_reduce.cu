// GPU kernels of the reductions (core/op/reduce/reduce.cc: sum, mean, prod, max,
// min, nansum, nanprod, norm, argmax, argmin) and of their gradient helpers (core/op/reduce/reduce_backward.cc: _broadcast_backward,
// _backward_sum, _backward_mean).
//
// A reduction runs one index per output element, looping over the reduced
// elements (the input's dims merged like the CPU's plan), and accumulates in
// the CPU's type (Note [Reduction accumulators] in core/op/reduce/reduce_cpu.cc):
// float64 for floating data, int64 for integers and bool, float64 for norms.
// Only the order of a float sum can differ from the CPU's (rounding only).
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

// ---- reductions ----

enum class Kind : int { kSum, kMean, kProd, kMax, kMin, kNanSum, kNanProd, kNorm1, kNorm2 };

template <typename A>
WEFT_HD inline bool IsNaN(A v) {
  return v != v;  // false for integers
}
template <typename A>
WEFT_HD inline A Lowest() {
  return std::numeric_limits<A>::has_infinity ? -std::numeric_limits<A>::infinity()
                                              : std::numeric_limits<A>::lowest();
}
template <typename A>
WEFT_HD inline A Highest() {
  return std::numeric_limits<A>::has_infinity ? std::numeric_limits<A>::infinity() : std::numeric_limits<A>::max();
}

// The reducers of core/op/reduce/reduce_cpu.cc (max/min propagate NaN).
struct SumR {
  template <typename A> WEFT_HD static A Init() { return A(0); }
  template <typename A> WEFT_HD static A Map(A x) { return x; }
  template <typename A> WEFT_HD static A Comb(A a, A b) { return a + b; }
};
struct ProdR {
  template <typename A> WEFT_HD static A Init() { return A(1); }
  template <typename A> WEFT_HD static A Map(A x) { return x; }
  template <typename A> WEFT_HD static A Comb(A a, A b) { return a * b; }
};
struct NanSumR : SumR {
  template <typename A> WEFT_HD static A Map(A x) { return IsNaN(x) ? A(0) : x; }
};
struct NanProdR : ProdR {
  template <typename A> WEFT_HD static A Map(A x) { return IsNaN(x) ? A(1) : x; }
};
struct MaxR {
  template <typename A> WEFT_HD static A Init() { return Lowest<A>(); }
  template <typename A> WEFT_HD static A Map(A x) { return x; }
  template <typename A> WEFT_HD static A Comb(A a, A b) { return (a >= b || IsNaN(a)) ? a : b; }
};
struct MinR {
  template <typename A> WEFT_HD static A Init() { return Highest<A>(); }
  template <typename A> WEFT_HD static A Map(A x) { return x; }
  template <typename A> WEFT_HD static A Comb(A a, A b) { return (a <= b || IsNaN(a)) ? a : b; }
};
struct Norm1R : SumR {
  template <typename A> WEFT_HD static A Map(A x) { return x < A(0) ? -x : x; }
};
struct Norm2R : SumR {
  template <typename A> WEFT_HD static A Map(A x) { return x * x; }
};

// The input seen as kept dims (in output order) and reduced dims, each with
// its input strides; the innermost reduced dim is looped directly.
struct ReducePlan {
  Dims kept, kept_stride;    // output index -> input offset
  Dims outer, outer_stride;  // reduced dims but the innermost
  int64_t inner = 1, inner_stride = 0, reduced = 1;
};

ReducePlan MakePlan(const Shape& s, const std::vector<bool>& reduce) {
  // Drop unit dims and merge neighbours of the same kind (MakePlan on the CPU).
  std::vector<int64_t> dims;
  std::vector<bool> red;
  for (int i = 0; i < s.ndim(); ++i) {
    if (s[i] == 1) continue;
    const bool r = reduce[static_cast<size_t>(i)];
    if (!dims.empty() && red.back() == r) dims.back() *= s[i];
    else { dims.push_back(s[i]); red.push_back(r); }
  }
  const std::vector<int64_t> stride = RowMajor(dims);
  std::vector<int64_t> kd, ks, rd, rs;
  for (size_t k = 0; k < dims.size(); ++k) {
    (red[k] ? rd : kd).push_back(dims[k]);
    (red[k] ? rs : ks).push_back(stride[k]);
  }
  ReducePlan p;
  if (!rd.empty()) {
    p.inner = rd.back();
    p.inner_stride = rs.back();
    rd.pop_back();
    rs.pop_back();
  }
  for (int64_t d : rd) p.reduced *= d;
  p.reduced *= p.inner;
  p.kept = ToDims(Shape(kd));
  p.kept_stride = ToDims(Shape(ks));
  p.outer = ToDims(Shape(rd));
  p.outer_stride = ToDims(Shape(rs));
  return p;
}

// The fold of output element i's reduced elements in accumulator type A.
template <typename A, typename R, typename T>
WEFT_HD inline A Fold(const T* x, int64_t i, const ReducePlan& p) {
  const int64_t base = OffsetOf(i, p.kept, p.kept_stride);
  const int64_t outer = p.inner == 0 ? 0 : p.reduced / p.inner;
  A r = R::template Init<A>();
  for (int64_t o = 0; o < outer; ++o) {
    const T* row = x + base + OffsetOf(o, p.outer, p.outer_stride);
    for (int64_t j = 0; j < p.inner; ++j) r = R::Comb(r, R::Map(static_cast<A>(row[j * p.inner_stride])));
  }
  return r;
}

// *dst (req)= v in the storage type (Store of core/op/reduce/reduce_cpu.cc).
template <typename T, typename A>
WEFT_HD inline void StoreAcc(T* out, int64_t i, OpReq req, A v) {
  out[i] = req == OpReq::kAddTo ? static_cast<T>(static_cast<A>(out[i]) + v) : static_cast<T>(v);
}

template <typename T>
void ReduceT(const OpContext& ctx, Kind kind, const T* x, ReducePlan p, int64_t size, OpReq req, T* out) {
  using A = typename std::conditional<IsFloatStorage<T>::value, double, int64_t>::type;
  Launch(ctx, size, [=] WEFT_HD(int64_t i) {
    const double count = static_cast<double>(p.reduced);
    switch (kind) {
      case Kind::kSum: StoreAcc(out, i, req, Fold<A, SumR>(x, i, p)); break;
      case Kind::kMean: StoreAcc(out, i, req, static_cast<A>(static_cast<double>(Fold<A, SumR>(x, i, p)) / count)); break;
      case Kind::kProd: StoreAcc(out, i, req, Fold<A, ProdR>(x, i, p)); break;
      case Kind::kMax: StoreAcc(out, i, req, Fold<A, MaxR>(x, i, p)); break;
      case Kind::kMin: StoreAcc(out, i, req, Fold<A, MinR>(x, i, p)); break;
      case Kind::kNanSum: StoreAcc(out, i, req, Fold<A, NanSumR>(x, i, p)); break;
      case Kind::kNanProd: StoreAcc(out, i, req, Fold<A, NanProdR>(x, i, p)); break;
      case Kind::kNorm1: StoreAcc(out, i, req, Fold<double, Norm1R>(x, i, p)); break;
      case Kind::kNorm2: StoreAcc(out, i, req, std::sqrt(Fold<double, Norm2R>(x, i, p))); break;
    }
  });
}

// out (req)= the reduction of in over the dims flagged in `reduce`; out may
// have another dtype (norm's out_dtype): then the result is rounded to in's
// dtype first and converted, as on the CPU.
void ReduceGPU(const OpContext& ctx, Kind kind, const TensorView& in, const std::vector<bool>& reduce, OpReq req,
               const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const ReducePlan p = MakePlan(in.shape, reduce);
  if (out.dtype == in.dtype) {
    WEFT_GPU_ALL_SWITCH(in.dtype, "reduce", T, { ReduceT<T>(ctx, kind, in.ptr<T>(), p, out.Size(), req, out.ptr<T>()); });
    return;
  }
  const std::vector<void*> s = ScratchPieces(
      ctx, {static_cast<size_t>(out.Size()) * DTypeSize(in.dtype), static_cast<size_t>(out.Size()) * sizeof(double)});
  WEFT_GPU_ALL_SWITCH(in.dtype, "reduce", T, {
    ReduceT<T>(ctx, kind, in.ptr<T>(), p, out.Size(), OpReq::kWriteTo, static_cast<T*>(s[0]));
  });
  ValuesToDoubleGPU(ctx, TensorView{s[0], in.dtype, out.shape}, static_cast<double*>(s[1]));
  DoublesToGPU(ctx, static_cast<const double*>(s[1]), req, out);
}

// The dims a reduction with p's axis (and exclude) reduces: every dim for
// axis=None or (), as ReduceAxesShape in core/op/reduce/reduce.cc and ReducedDims in
// core/op/reduce/reduce_backward.cc.
std::vector<bool> ReducedDims(const Params& p, const Shape& data, bool exclude) {
  const int nd = data.ndim();
  const std::string& op = p.op()->name;
  if (p.IsNone("axis") || p.GetTuple("axis").empty()) return std::vector<bool>(static_cast<size_t>(nd), true);
  std::vector<bool> red(static_cast<size_t>(nd), false);
  for (int64_t a : p.GetTuple("axis")) red[static_cast<size_t>(tensor::NormalizeAxis(a, nd, op, "data"))] = true;
  if (exclude) red.flip();
  return red;
}

bool HasExclude(const Params& p) { return p.op()->ParamIndex("exclude") >= 0 && p.GetBool("exclude"); }

template <Kind kKind>
void ReduceCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  ReduceGPU(ctx, kKind, in[0], ReducedDims(p, in[0].shape, HasExclude(p)), req[0], out[0]);
}

void Norm(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  const int64_t ord = p.GetInt("ord");
  WEFT_CHECK(ord == 1 || ord == 2, kInvalidArgument) << "norm: parameter 'ord' must be 1 or 2, got " << ord;
  ReduceGPU(ctx, ord == 1 ? Kind::kNorm1 : Kind::kNorm2, in[0], ReducedDims(p, in[0].shape, false), req[0], out[0]);
}

// ---- argmax / argmin ----

// The first extreme along the axis (the first NaN wins), written in out's
// dtype: the input's, float32 for bool (ArgLoop of core/op/reduce/reduce_cpu.cc).
template <typename T>
void ArgReduceT(const OpContext& ctx, bool is_max, const T* x, int64_t size, int64_t n, int64_t inner, OpReq req,
                typename std::conditional<std::is_same<T, bool>::value, float, T>::type* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t i) {
    const T* xo = x + (i / inner) * n * inner + i % inner;
    T best = xo[0];
    int64_t res = 0;
    bool done = IsNaN(best);
    for (int64_t j = 1; j < n && !done; ++j) {
      const T v = xo[j * inner];
      if (IsNaN(v)) {
        res = j;
        done = true;
      } else if (is_max ? v > best : v < best) {
        best = v;
        res = j;
      }
    }
    StoreDouble(out, i, req, static_cast<double>(res));
  });
}

template <bool kMax>
void ArgReduce(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const Shape& s = in[0].shape;
  const char* op = kMax ? "argmax" : "argmin";
  WEFT_CHECK(s.Size() > 0, kShape) << op << ": cannot reduce an empty input 'data' of shape " << s.ToString();
  if (req[0] == OpReq::kNull) return;
  int64_t n = s.Size(), inner = 1;
  if (!p.IsNone("axis")) {
    const int axis = tensor::NormalizeAxis(p.GetInt("axis"), s.ndim(), op, "data");
    n = s[axis];
    inner = s.ProdRange(axis + 1, s.ndim());
  }
  WEFT_GPU_ALL_SWITCH(in[0].dtype, op, T, {
    using D = typename std::conditional<std::is_same<T, bool>::value, float, T>::type;
    ArgReduceT<T>(ctx, kMax, in[0].ptr<T>(), out[0].Size(), n, inner, req[0], out[0].ptr<D>());
  });
}

// ---- gradient helpers ----

// _broadcast_backward: out_grad summed over the dims along which `like`
// (left-padded with 1s) was broadcast.
void BroadcastBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const Shape& g = in[0].shape;
  const int nd = g.ndim(), lead = nd - out[0].ndim();
  WEFT_CHECK(lead >= 0, kInternal) << "sum to shape: target " << out[0].shape.ToString() << " has more dims than "
                                   << g.ToString();
  std::vector<bool> red(static_cast<size_t>(nd), false);
  for (int i = 0; i < nd; ++i)
    red[static_cast<size_t>(i)] = i < lead || (out[0].shape[i - lead] == 1 && g[i] != 1);
  ReduceGPU(ctx, Kind::kSum, in[0], red, req[0], out[0]);
}

// a * b in T's arithmetic (OpMul of the CPU's elementwise kernels: integers
// wrap, bool is an and).
template <typename T>
WEFT_HD inline T MulT(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && b;
  } else if constexpr (std::is_integral<T>::value) {
    using U = typename std::make_unsigned<T>::type;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return a * b;
  }
}

template <typename T>
void BroadcastScaleT(const OpContext& ctx, int64_t size, const T* g, Dims shape, Dims stride, T scale, OpReq req,
                     T* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t i) { Assign(out, i, req, MulT(g[OffsetOf(i, shape, stride)], scale)); });
}

// _backward_sum / _backward_mean: out_grad (the kept dims) broadcast back to
// data's shape; mean multiplies by 1 / count converted to the dtype first, as
// the CPU's scalar multiply does.
template <bool kMean>
void ReduceBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape& d = in[1].shape;
  const std::vector<bool> red = ReducedDims(p, d, p.GetBool("exclude"));
  Shape kept = out[0].shape;
  int64_t n = 1;
  for (int i = 0; i < d.ndim(); ++i)
    if (red[static_cast<size_t>(i)]) {
      n *= d[i];
      kept[i] = 1;
    }
  WEFT_CHECK(kept.Size() == in[0].Size(), kInternal) << "broadcast back: gradient of shape " << in[0].shape.ToString()
                                                     << " does not match the reduced shape " << kept.ToString();
  const TensorView src{in[0].data, in[0].dtype, kept};
  const double scale = kMean && n > 0 ? 1.0 / static_cast<double>(n) : 1.0;
  if (scale == 1.0) {
    BroadcastCopyGPU(ctx, src, req[0], out[0]);
    return;
  }
  std::vector<int64_t> stride = RowMajor(kept.dims());
  for (int i = 0; i < kept.ndim(); ++i)
    if (kept[i] == 1) stride[static_cast<size_t>(i)] = 0;
  const Dims shape = ToDims(out[0].shape), st = ToDims(Shape(stride));
  WEFT_GPU_ALL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, {
    // ToStorage of the CPU: bool is scale != 0, integers truncate.
    const T s = std::is_same<T, bool>::value ? static_cast<T>(scale != 0) : CastDouble<T>(scale);
    BroadcastScaleT<T>(ctx, out[0].Size(), in[0].ptr<T>(), shape, st, s, req[0], out[0].ptr<T>());
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(BroadcastBackwardGpu, BroadcastBackward)  // _broadcast_backward
WEFT_GPU_KERNEL_EXPORT(BackwardSumGpu, ReduceBackward<false>)  // _backward_sum
WEFT_GPU_KERNEL_EXPORT(BackwardMeanGpu, ReduceBackward<true>)  // _backward_mean
WEFT_GPU_KERNEL_EXPORT(SumGpu, ReduceCompute<Kind::kSum>)  // sum
WEFT_GPU_KERNEL_EXPORT(MeanGpu, ReduceCompute<Kind::kMean>)  // mean
WEFT_GPU_KERNEL_EXPORT(ProdGpu, ReduceCompute<Kind::kProd>)  // prod
WEFT_GPU_KERNEL_EXPORT(MaxGpu, ReduceCompute<Kind::kMax>)  // max
WEFT_GPU_KERNEL_EXPORT(MinGpu, ReduceCompute<Kind::kMin>)  // min
WEFT_GPU_KERNEL_EXPORT(NansumGpu, ReduceCompute<Kind::kNanSum>)  // nansum
WEFT_GPU_KERNEL_EXPORT(NanprodGpu, ReduceCompute<Kind::kNanProd>)  // nanprod
WEFT_GPU_KERNEL_EXPORT(NormGpu, Norm)  // norm
WEFT_GPU_KERNEL_EXPORT(ArgmaxGpu, ArgReduce<true>)  // argmax
WEFT_GPU_KERNEL_EXPORT(ArgminGpu, ArgReduce<false>)  // argmin

}  // namespace cuda
}  // namespace weft
