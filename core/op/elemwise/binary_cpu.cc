// Binary elementwise kernels on CPU: same shape, with a scalar, broadcast.
// All three reduce to one 1-D loop over (a, stride 0|1) x (b, stride 0|1),
// specialised per stride pair so the contiguous cases vectorise.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/elemwise/elemwise_math.h"

namespace weft {
namespace elemwise_cpu {
namespace {

// The functor of binary kind K: its rule (Note [One elementwise rule]).
template <BinaryKind K>
struct OpBinary {
  static constexpr int kCost = elemwise_rules::BinaryCost(K);
  template <typename C>
  static C Map(C a, C b) { return elemwise_rules::Binary<K>(a, b); }
};

// o[i] = op(a[i * sa], b[i * sb]), sa and sb in {0, 1}. Not inlined so that
// WriteOrAdd's two call sites share one copy of the loops.
template <typename T, typename Op>
WEFT_VECTOR_LOOP void BinaryWrite(const T* a, int64_t sa, const T* b, int64_t sb, T* o, int64_t n) {
  using C = Acc<T>;
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = ToStorage<T>(Op::Map(static_cast<C>(a[i]), static_cast<C>(b[i])));
  } else if (sa == 1) {
    const C bv = static_cast<C>(b[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = ToStorage<T>(Op::Map(static_cast<C>(a[i]), bv));
  } else if (sb == 1) {
    const C av = static_cast<C>(a[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = ToStorage<T>(Op::Map(av, static_cast<C>(b[i])));
  } else {
    std::fill(o, o + n, ToStorage<T>(Op::Map(static_cast<C>(a[0]), static_cast<C>(b[0]))));
  }
}

template <typename T>
struct RowCtx {
  const T* a;
  const T* b;
  T* o;
  int64_t sa, sb;
  bool add;
};

template <typename T, typename Op>
void BinaryRow(void* ctx, int64_t oo, int64_t lo, int64_t ro, int64_t n) {
  const auto* c = static_cast<const RowCtx<T>*>(ctx);
  const T* a = c->a + lo;
  const T* b = c->b + ro;
  const int64_t sa = c->sa, sb = c->sb;
  WriteOrAdd(c->o + oo, n, c->add, [&](T* dst, int64_t off, int64_t m) {
    BinaryWrite<T, Op>(a + off * sa, sa, b + off * sb, sb, dst, m);
  });
}

// Every mode runs as a broadcast plan: same shape and scalar modes are
// one-dim plans with strides (1, 1), (1, 0) or (0, 1).
template <typename Op>
void BinaryLaunch(const BroadcastPlan& plan, const TensorView& lhs, const void* rhs, bool add,
                  const TensorView& out) {
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    RowCtx<T> ctx{lhs.ptr<T>(), static_cast<const T*>(rhs), out.ptr<T>(), plan.lstride.back(),
                  plan.rstride.back(), add};
    RunBroadcastRows(plan, Op::kCost, &BinaryRow<T, Op>, &ctx);
  })
}

void BinaryDispatch(BinaryKind kind, const BroadcastPlan& plan, const TensorView& lhs, const void* rhs,
                    OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  const bool add = req == OpReq::kAddTo;
  switch (kind) {
#define WEFT_BINARY_CASE(e, name, cost) \
  case BinaryKind::e:                   \
    return BinaryLaunch<OpBinary<BinaryKind::e>>(plan, lhs, rhs, add, out);
    WEFT_BINARY_KINDS(WEFT_BINARY_CASE)
#undef WEFT_BINARY_CASE
  }
  WEFT_THROW(kInternal) << "unknown binary kernel " << static_cast<int>(kind);
}

}  // namespace

void BinaryKernel(BinaryKind kind, const TensorView& lhs, const TensorView& rhs, OpReq req,
                  const TensorView& out) {
  BinaryDispatch(kind, FlatPlan(out.Size(), 1, 1), lhs, rhs.data, req, out);
}

void BinaryScalarKernel(BinaryKind kind, const TensorView& in, double scalar, bool scalar_on_left,
                        OpReq req, const TensorView& out) {
  // MXNet converts the scalar to the input dtype first: DType(scalar).
  alignas(8) unsigned char sv[8];
  WEFT_DTYPE_SWITCH(in.dtype, T, { *reinterpret_cast<T*>(sv) = ToStorage<T>(scalar); })
  if (scalar_on_left) {
    TensorView s{sv, in.dtype, Shape{}};
    BinaryDispatch(kind, FlatPlan(out.Size(), 0, 1), s, in.data, req, out);
  } else {
    BinaryDispatch(kind, FlatPlan(out.Size(), 1, 0), in, sv, req, out);
  }
}

// Note [Elementwise blocks] in elemwise_kernels.h.
namespace {
template <typename Op>
void BinaryBlockOf(DType dtype, const void* a, int64_t sa, const void* b, int64_t sb, void* o, int64_t n) {
  WEFT_DTYPE_SWITCH(dtype, T, {
    BinaryWrite<T, Op>(static_cast<const T*>(a), sa, static_cast<const T*>(b), sb, static_cast<T*>(o), n);
  })
}
}  // namespace

void BinaryBlock(BinaryKind kind, DType dtype, const void* lhs, int64_t lstride, const void* rhs, int64_t rstride,
                 void* out, int64_t n) {
  switch (kind) {
#define WEFT_BINARY_CASE(e, name, cost) \
  case BinaryKind::e:                   \
    return BinaryBlockOf<OpBinary<BinaryKind::e>>(dtype, lhs, lstride, rhs, rstride, out, n);
    WEFT_BINARY_KINDS(WEFT_BINARY_CASE)
#undef WEFT_BINARY_CASE
  }
  WEFT_THROW(kInternal) << "unknown binary kernel " << static_cast<int>(kind);
}

void BroadcastBinaryKernel(BinaryKind kind, const TensorView& lhs, const TensorView& rhs, OpReq req,
                           const TensorView& out) {
  BinaryDispatch(kind, MakeBroadcastPlan(lhs.shape, rhs.shape, out.shape), lhs, rhs.data, req, out);
}

}  // namespace elemwise_cpu
}  // namespace weft
