#include "core/op/reduce/reduce_cpu.h"

#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {
namespace {

// Note [Reduction accumulators]
// Each storage dtype reduces in one accumulator type: float16 and bfloat16 in
// float, float32 and float64 in double (so a long float32 sum does not drift),
// integers and bool in int64 (the result wraps to the storage width like
// MXNet's). Norms of integer arrays accumulate in double. max/min use the same
// accumulator, which holds every value of the storage type exactly. The result
// is rounded to the output dtype once, when it is stored.
template <typename T>
using SumAcc = typename std::conditional<
    std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value, float,
    typename std::conditional<std::is_floating_point<T>::value, double, int64_t>::type>::type;

template <typename A>
A Lowest() {
  return std::numeric_limits<A>::has_infinity ? -std::numeric_limits<A>::infinity()
                                              : std::numeric_limits<A>::lowest();
}
template <typename A>
A Highest() {
  return std::numeric_limits<A>::has_infinity ? std::numeric_limits<A>::infinity() : std::numeric_limits<A>::max();
}
template <typename A>
bool IsNaN(A v) {
  return v != v;  // always false for integers
}

struct SumR {
  template <typename A> static A Init() { return A(0); }
  template <typename A> static A Map(A x) { return x; }
  template <typename A> static A Comb(A a, A b) { return a + b; }
};
struct ProdR {
  template <typename A> static A Init() { return A(1); }
  template <typename A> static A Map(A x) { return x; }
  template <typename A> static A Comb(A a, A b) { return a * b; }
};
struct NanSumR : SumR {
  template <typename A> static A Map(A x) { return IsNaN(x) ? A(0) : x; }
};
struct NanProdR : ProdR {
  template <typename A> static A Map(A x) { return IsNaN(x) ? A(1) : x; }
};
// max/min propagate NaN, like NumPy and MXNet's red::maximum.
struct MaxR {
  template <typename A> static A Init() { return Lowest<A>(); }
  template <typename A> static A Map(A x) { return x; }
  template <typename A> static A Comb(A a, A b) { return (a >= b || IsNaN(a)) ? a : b; }
};
struct MinR {
  template <typename A> static A Init() { return Highest<A>(); }
  template <typename A> static A Map(A x) { return x; }
  template <typename A> static A Comb(A a, A b) { return (a <= b || IsNaN(a)) ? a : b; }
};
struct Norm1R : SumR {
  template <typename A> static A Map(A x) { return x < A(0) ? -x : x; }
};
struct Norm2R : SumR {
  template <typename A> static A Map(A x) { return x * x; }
};

// Merged dims of the input with per-dim input and accumulator strides (the
// accumulator stride is 0 on reduced dims).
struct Plan {
  std::vector<int64_t> dims, in_stride, acc_stride;
  std::vector<bool> red;
  int64_t kept = 1, reduced = 1;
};

Plan MakePlan(const Shape& s, const std::vector<bool>& reduce) {
  Plan p;
  for (int i = 0; i < s.ndim(); ++i) {
    if (s[i] == 1) continue;
    bool r = reduce[static_cast<size_t>(i)];
    if (!p.dims.empty() && p.red.back() == r) p.dims.back() *= s[i];
    else { p.dims.push_back(s[i]); p.red.push_back(r); }
    (r ? p.reduced : p.kept) *= s[i];
  }
  if (p.dims.empty()) { p.dims.push_back(1); p.red.push_back(false); }
  const size_t m = p.dims.size();
  p.in_stride = ContiguousStrides(p.dims);
  p.acc_stride.assign(m, 0);
  int64_t st = 1;
  for (size_t k = m; k-- > 0;)
    if (!p.red[k]) { p.acc_stride[k] = st; st *= p.dims[k]; }
  return p;
}

// Folds input rows of dim-0 indices [b, e) into acc.
template <typename T, typename A, typename R>
void ReduceRange(const T* x, A* acc, const Plan& p, int64_t b, int64_t e) {
  const int m = static_cast<int>(p.dims.size());
  const int64_t n = p.dims[m - 1];
  const bool inner_red = p.red[m - 1];
  auto row = [&](int64_t xo, int64_t ao) {
    const T* xr = x + xo;
    if (inner_red) {
      A r = R::template Init<A>();
      for (int64_t j = 0; j < n; ++j) r = R::Comb(r, R::Map(static_cast<A>(xr[j])));
      acc[ao] = R::Comb(acc[ao], r);
    } else {
      A* ar = acc + ao;
      for (int64_t j = 0; j < n; ++j) ar[j] = R::Comb(ar[j], R::Map(static_cast<A>(xr[j])));
    }
  };
  if (m == 1) {  // one row; [b, e) are positions in it
    if (inner_red) {
      A r = R::template Init<A>();
      for (int64_t j = b; j < e; ++j) r = R::Comb(r, R::Map(static_cast<A>(x[j])));
      acc[0] = R::Comb(acc[0], r);
    } else {
      for (int64_t j = b; j < e; ++j) acc[j] = R::Comb(acc[j], R::Map(static_cast<A>(x[j])));
    }
    return;
  }
  std::vector<int64_t> idx(static_cast<size_t>(m - 1), 0);
  idx[0] = b;
  int64_t xo = b * p.in_stride[0], ao = b * p.acc_stride[0];
  while (idx[0] < e) {
    row(xo, ao);
    for (int k = m - 2; k >= 0; --k) {
      ++idx[k];
      xo += p.in_stride[k];
      ao += p.acc_stride[k];
      if (k == 0 || idx[k] < p.dims[k]) break;
      xo -= p.in_stride[k] * p.dims[k];
      ao -= p.acc_stride[k] * p.dims[k];
      idx[k] = 0;
    }
  }
}

template <typename T, typename A>
void Store(OpReq req, T* dst, A v) {
  if (req == OpReq::kAddTo) *dst = static_cast<T>(static_cast<A>(*dst) + v);
  else *dst = static_cast<T>(v);
}

template <typename T, typename A, typename R>
void RunReduce(ReduceKind kind, const TensorView& in, const Plan& p, OpReq req, const TensorView& out) {
  std::vector<A> acc(static_cast<size_t>(p.kept), R::template Init<A>());
  const T* x = in.ptr<T>();
  if (in.Size() > 0) {
    if (!p.red[0] && p.dims.size() > 1) {
      // Dim 0 is kept: threads own disjoint accumulator slices.
      ParallelFor(p.dims[0], p.in_stride[0], [&](int64_t b, int64_t e) { ReduceRange<T, A, R>(x, acc.data(), p, b, e); });
    } else {
      ReduceRange<T, A, R>(x, acc.data(), p, 0, p.dims[0]);
    }
  }
  T* o = out.ptr<T>();
  const double count = static_cast<double>(p.reduced);
  for (int64_t i = 0; i < p.kept; ++i) {
    A v = acc[static_cast<size_t>(i)];
    if (kind == ReduceKind::kMean) v = static_cast<A>(static_cast<double>(v) / count);
    if (kind == ReduceKind::kNorm2) v = static_cast<A>(std::sqrt(static_cast<double>(v)));
    Store(req, o + i, v);
  }
}

template <typename T>
void DispatchKind(ReduceKind kind, const TensorView& in, const Plan& p, OpReq req, const TensorView& out) {
  using A = SumAcc<T>;
  using NA = typename std::conditional<std::is_integral<A>::value, double, A>::type;
  switch (kind) {
    case ReduceKind::kSum:
    case ReduceKind::kMean: RunReduce<T, A, SumR>(kind, in, p, req, out); break;
    case ReduceKind::kProd: RunReduce<T, A, ProdR>(kind, in, p, req, out); break;
    case ReduceKind::kMax: RunReduce<T, A, MaxR>(kind, in, p, req, out); break;
    case ReduceKind::kMin: RunReduce<T, A, MinR>(kind, in, p, req, out); break;
    case ReduceKind::kNanSum: RunReduce<T, A, NanSumR>(kind, in, p, req, out); break;
    case ReduceKind::kNanProd: RunReduce<T, A, NanProdR>(kind, in, p, req, out); break;
    case ReduceKind::kNorm1: RunReduce<T, NA, Norm1R>(kind, in, p, req, out); break;
    case ReduceKind::kNorm2: RunReduce<T, NA, Norm2R>(kind, in, p, req, out); break;
  }
}

}  // namespace

void ReduceCPU(ReduceKind kind, const TensorView& in, const std::vector<bool>& reduce, OpReq req,
               const TensorView& out) {
  if (req == OpReq::kNull) return;
  Plan p = MakePlan(in.shape, reduce);
  WEFT_CHECK(p.kept == out.Size(), kInternal) << "reduce: output size " << out.Size() << " != " << p.kept;
  if (out.dtype != in.dtype) {
    std::unique_ptr<char[]> tmp(new char[static_cast<size_t>(out.Size()) * DTypeSize(in.dtype)]);
    TensorView t{tmp.get(), in.dtype, out.shape};
    WEFT_DTYPE_SWITCH(in.dtype, T, { DispatchKind<T>(kind, in, p, OpReq::kWriteTo, t); })
    ConvertCopy(t, req, out);
    return;
  }
  WEFT_DTYPE_SWITCH(in.dtype, T, { DispatchKind<T>(kind, in, p, req, out); })
}

namespace {

template <typename T>
void ArgLoop(bool is_max, const T* x, int64_t outer, int64_t n, int64_t inner, int64_t* res) {
  using C = typename std::conditional<std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value, float,
                                      T>::type;
  auto better = [is_max](C v, C best) { return is_max ? v > best : v < best; };
  ParallelFor(outer, n * inner, [&](int64_t b, int64_t e) {
    std::vector<C> best(static_cast<size_t>(inner));
    std::vector<char> done(static_cast<size_t>(inner));
    for (int64_t o = b; o < e; ++o) {
      const T* xo = x + o * n * inner;
      int64_t* ro = res + o * inner;
      for (int64_t k = 0; k < inner; ++k) {
        best[k] = static_cast<C>(xo[k]);
        ro[k] = 0;
        done[k] = IsNaN(best[k]);  // the first NaN wins, as in NumPy
      }
      for (int64_t j = 1; j < n; ++j) {
        const T* xr = xo + j * inner;
        for (int64_t k = 0; k < inner; ++k) {
          if (done[k]) continue;
          C v = static_cast<C>(xr[k]);
          if (IsNaN(v)) { ro[k] = j; done[k] = 1; }
          else if (better(v, best[k])) { best[k] = v; ro[k] = j; }
        }
      }
    }
  });
}

}  // namespace

void ArgReduceCPU(bool is_max, const TensorView& in, int axis, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  int64_t outer = 1, n = in.Size(), inner = 1;
  if (axis >= 0) {
    outer = in.shape.ProdRange(0, axis);
    n = in.shape[axis];
    inner = in.shape.ProdRange(axis + 1, in.ndim());
  }
  WEFT_CHECK(outer * inner == out.Size(), kInternal) << "argmax: output size mismatch";
  std::vector<int64_t> res(static_cast<size_t>(outer * inner), 0);
  if (n > 0) {
    WEFT_DTYPE_SWITCH(in.dtype, T, { ArgLoop<T>(is_max, in.ptr<T>(), outer, n, inner, res.data()); })
  }
  ConvertCopy(TensorView{res.data(), DType::kInt64, out.shape}, req, out);
}

}  // namespace tensor_cpu
}  // namespace weft
