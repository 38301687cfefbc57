// Unary math, Cast, clip and where on CPU. Binary ops: binary_kernels.cc;
// broadcast plans and copies: broadcast_kernels.cc.
#include "core/op/elemwise/elemwise_cpu.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/op/elemwise/elemwise_math.h"

namespace weft {
namespace elemwise_cpu {
namespace {

// The functor of unary kind K: its rule (Note [One elementwise rule]).
template <UnaryKind K>
struct OpUnary {
  static constexpr int kCost = elemwise_rules::UnaryCost(K);
  template <typename C>
  static C Map(C x) { return elemwise_rules::Unary<K>(x); }
};

template <typename T, typename Op>
WEFT_VECTOR_LOOP void UnaryWrite(const T* in, T* out, int64_t n) {
  using C = Acc<T>;
  for (int64_t i = 0; i < n; ++i) out[i] = ToStorage<T>(Op::Map(static_cast<C>(in[i])));
}

template <typename T>
struct UnaryCtx {
  const T* in;
  T* out;
  bool add;
};

template <typename T, typename Op>
void UnaryRow(void* ctx, int64_t oo, int64_t io, int64_t, int64_t n) {
  const auto* c = static_cast<const UnaryCtx<T>*>(ctx);
  const T* in = c->in + io;
  WriteOrAdd(c->out + oo, n, c->add, [&](T* dst, int64_t off, int64_t m) { UnaryWrite<T, Op>(in + off, dst, m); });
}

template <typename Op>
void UnaryLaunch(const TensorView& in, OpReq req, const TensorView& out) {
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    UnaryCtx<T> ctx{in.ptr<T>(), out.ptr<T>(), req == OpReq::kAddTo};
    RunBroadcastRows(FlatPlan(out.Size(), 1, 1), Op::kCost, &UnaryRow<T, Op>, &ctx);
  })
}

}  // namespace

void UnaryKernel(UnaryKind kind, const TensorView& in, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  switch (kind) {
#define WEFT_UNARY_CASE(e, ...) \
  case UnaryKind::e:            \
    return UnaryLaunch<OpUnary<UnaryKind::e>>(in, req, out);
#define WEFT_UNARY_MATH_CASE(e, name, fluent, value, gradient, doc) WEFT_UNARY_CASE(e)
    WEFT_UNARY_EXACT_KINDS(WEFT_UNARY_CASE)
    WEFT_UNARY_MATH_OPS(WEFT_UNARY_MATH_CASE)
#undef WEFT_UNARY_MATH_CASE
#undef WEFT_UNARY_CASE
  }
  WEFT_THROW(kInternal) << "unknown unary kernel " << static_cast<int>(kind);
}

// Note [Elementwise blocks] in elemwise_kernels.h.
namespace {
template <typename Op>
void UnaryBlockOf(DType dtype, const void* in, void* out, int64_t n) {
  WEFT_DTYPE_SWITCH(dtype, T, { UnaryWrite<T, Op>(static_cast<const T*>(in), static_cast<T*>(out), n); })
}
}  // namespace

void UnaryBlock(UnaryKind kind, DType dtype, const void* in, void* out, int64_t n) {
  switch (kind) {
#define WEFT_UNARY_CASE(e, ...) \
  case UnaryKind::e:            \
    return UnaryBlockOf<OpUnary<UnaryKind::e>>(dtype, in, out, n);
#define WEFT_UNARY_MATH_CASE(e, name, fluent, value, gradient, doc) WEFT_UNARY_CASE(e)
    WEFT_UNARY_EXACT_KINDS(WEFT_UNARY_CASE)
    WEFT_UNARY_MATH_OPS(WEFT_UNARY_MATH_CASE)
#undef WEFT_UNARY_MATH_CASE
#undef WEFT_UNARY_CASE
  }
  WEFT_THROW(kInternal) << "unknown unary kernel " << static_cast<int>(kind);
}

// ---- Cast -----------------------------------------------------------------

namespace {
template <typename T, typename U>
WEFT_VECTOR_LOOP void CastWrite(const T* in, U* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = ToStorage<U>(static_cast<Acc<T>>(in[i]));
}
template <typename T, typename U>
struct CastCtx {
  const T* in;
  U* out;
  bool add;
};
template <typename T, typename U>
void CastRow(void* ctx, int64_t oo, int64_t io, int64_t, int64_t n) {
  const auto* c = static_cast<const CastCtx<T, U>*>(ctx);
  const T* in = c->in + io;
  WriteOrAdd(c->out + oo, n, c->add, [&](U* dst, int64_t off, int64_t m) { CastWrite<T, U>(in + off, dst, m); });
}
}  // namespace

void CastKernel(const TensorView& in, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  WEFT_DTYPE_SWITCH(in.dtype, T, {
    WEFT_DTYPE_SWITCH(out.dtype, U, {
      CastCtx<T, U> ctx{in.ptr<T>(), out.ptr<U>(), req == OpReq::kAddTo};
      RunBroadcastRows(FlatPlan(out.Size(), 1, 1), 1, &CastRow<T, U>, &ctx);
    })
  })
}

// ---- clip -----------------------------------------------------------------

namespace {
template <typename T>
WEFT_VECTOR_LOOP void ClipWrite(const T* in, T* out, int64_t n, Acc<T> lo, Acc<T> hi) {
  using C = Acc<T>;
  for (int64_t i = 0; i < n; ++i) {
    const C x = static_cast<C>(in[i]);
    out[i] = ToStorage<T>(x > hi ? hi : (x < lo ? lo : x));  // MXNet's order: a_max wins
  }
}
template <typename T>
struct ClipCtx {
  const T* in;
  T* out;
  Acc<T> lo, hi;
  bool add;
};
template <typename T>
void ClipRow(void* ctx, int64_t oo, int64_t io, int64_t, int64_t n) {
  const auto* c = static_cast<const ClipCtx<T>*>(ctx);
  const T* in = c->in + io;
  WriteOrAdd(c->out + oo, n, c->add, [&](T* dst, int64_t off, int64_t m) { ClipWrite<T>(in + off, dst, m, c->lo, c->hi); });
}
}  // namespace

void ClipKernel(const TensorView& in, double a_min, double a_max, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    using C = Acc<T>;
    // MXNet converts the bounds to the data type first: DType(a_min).
    ClipCtx<T> ctx{in.ptr<T>(), out.ptr<T>(), static_cast<C>(ToStorage<T>(a_min)),
                   static_cast<C>(ToStorage<T>(a_max)), req == OpReq::kAddTo};
    RunBroadcastRows(FlatPlan(out.Size(), 1, 1), 1, &ClipRow<T>, &ctx);
  })
}

// ---- where ----------------------------------------------------------------

namespace {
// mask has one byte per row of `inner` elements; inner == 1 selects per element.
template <typename T>
WEFT_VECTOR_LOOP void WhereWrite(const uint8_t* mask, const T* x, const T* y, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = mask[i] ? x[i] : y[i];
}
template <typename T>
struct WhereCtx {
  const uint8_t* mask;
  const T* x;
  const T* y;
  T* out;
  int64_t inner;
  bool add;
};
template <typename T>
void WhereRow(void* ctx, int64_t oo, int64_t, int64_t, int64_t n) {
  const auto* c = static_cast<const WhereCtx<T>*>(ctx);
  if (c->inner == 1) {
    WriteOrAdd(c->out + oo, n, c->add, [&](T* dst, int64_t off, int64_t m) {
      WhereWrite<T>(c->mask + oo + off, c->x + oo + off, c->y + oo + off, dst, m);
    });
  } else {  // one row of the 1-D condition case: a whole-row copy from x or y
    const T* src = (c->mask[oo / c->inner] ? c->x : c->y) + oo;
    if (c->add) AddBlock(c->out + oo, src, n);
    else std::copy(src, src + n, c->out + oo);
  }
}
}  // namespace

void WhereKernel(const TensorView& cond, const TensorView& x, const TensorView& y, OpReq req,
                 const TensorView& out) {
  if (req == OpReq::kNull) return;
  const int64_t n = out.Size();
  const int64_t rows = cond.Size();
  if (n == 0 || rows == 0) return;
  const int64_t inner = n / rows;
  // The condition, whatever its dtype, becomes a 0/1 byte mask first so the
  // select loop is instantiated once per value dtype, not per dtype pair.
  std::vector<uint8_t> mask(static_cast<size_t>(rows));
  WEFT_DTYPE_SWITCH(cond.dtype, T, {
    const T* c = cond.ptr<T>();
    for (int64_t i = 0; i < rows; ++i) mask[i] = static_cast<Acc<T>>(c[i]) != Acc<T>(0);
  })
  // Rows of `inner` elements: a two-dim plan (rows, inner) runs row by row.
  BroadcastPlan plan = FlatPlan(n, 1, 1);
  if (inner > 1) {
    plan.dims = {rows, inner};
    plan.lstride = {inner, 1};
    plan.rstride = {inner, 1};
  }
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    WhereCtx<T> ctx{mask.data(), x.ptr<T>(), y.ptr<T>(), out.ptr<T>(), inner, req == OpReq::kAddTo};
    RunBroadcastRows(plan, 1, &WhereRow<T>, &ctx);
  })
}

}  // namespace elemwise_cpu
}  // namespace weft
