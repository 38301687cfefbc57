// Broadcast plans (Note [Broadcast plan]) and the broadcast copy behind
// broadcast_to / broadcast_like / broadcast_axis.
#include <algorithm>
#include <vector>

#include "core/base/checked_math.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/elemwise/elemwise_math.h"
#include "core/op/op_util.h"

namespace weft {
namespace elemwise_cpu {

BroadcastPlan MakeBroadcastPlan(const Shape& lhs, const Shape& rhs, const Shape& out) {
  const int nd = out.ndim();
  auto dim_at = [nd](const Shape& s, int i) -> int64_t {
    const int pad = nd - s.ndim();
    return i < pad ? 1 : s[i - pad];
  };
  BroadcastPlan plan;
  plan.size = out.Size();
  // Innermost first; reversed at the end.
  int64_t lrun = 1, rrun = 1;
  int prev_pattern = -1;
  for (int i = nd - 1; i >= 0; --i) {
    const int64_t o = out[i];
    if (o == 1) continue;  // size-1 dims of out are 1 in both inputs: no effect on offsets
    const bool lb = dim_at(lhs, i) == 1;
    const bool rb = dim_at(rhs, i) == 1;
    const int pattern = (lb ? 2 : 0) | (rb ? 1 : 0);
    if (pattern == prev_pattern) {
      plan.dims.back() = SaturatingMul(plan.dims.back(), o);  // contiguous with the dim inside it for both inputs
    } else {
      plan.dims.push_back(o);
      plan.lstride.push_back(lb ? 0 : lrun);
      plan.rstride.push_back(rb ? 0 : rrun);
      prev_pattern = pattern;
    }
    // Saturating: an input's run passes int64 only when the output is empty (a 2**62 dim beside a
    // 0), and then no stride is used.
    if (!lb) lrun = SaturatingMul(lrun, o);
    if (!rb) rrun = SaturatingMul(rrun, o);
  }
  if (plan.dims.empty()) {  // every dim is 1: one element
    plan.dims.push_back(1);
    plan.lstride.push_back(0);
    plan.rstride.push_back(0);
  }
  std::reverse(plan.dims.begin(), plan.dims.end());
  std::reverse(plan.lstride.begin(), plan.lstride.end());
  std::reverse(plan.rstride.begin(), plan.rstride.end());
  return plan;
}

BroadcastPlan FlatPlan(int64_t n, int64_t lstride, int64_t rstride) {
  BroadcastPlan plan;
  plan.dims = {n};
  plan.lstride = {lstride};
  plan.rstride = {rstride};
  plan.size = n;
  return plan;
}

void RunBroadcastRows(const BroadcastPlan& plan, int64_t cost_per_element, BroadcastRowFn fn, void* ctx) {
  if (plan.size == 0) return;
  const int nd = static_cast<int>(plan.dims.size());
  const int64_t inner = plan.dims[nd - 1];
  if (nd == 1) {  // a single run: split it across threads
    const int64_t ls = plan.lstride[0], rs = plan.rstride[0];
    ParallelFor(inner, cost_per_element, [&](int64_t b, int64_t e) { fn(ctx, b, b * ls, b * rs, e - b); });
    return;
  }
  const int64_t rows = plan.size / inner;
  const int outer = nd - 1;
  ParallelFor(rows, inner * cost_per_element, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> idx(static_cast<size_t>(outer));
    int64_t lo = 0, ro = 0, rem = begin;
    for (int d = outer - 1; d >= 0; --d) {
      idx[d] = rem % plan.dims[d];
      rem /= plan.dims[d];
      lo += idx[d] * plan.lstride[d];
      ro += idx[d] * plan.rstride[d];
    }
    for (int64_t r = begin; r < end; ++r) {
      fn(ctx, r * inner, lo, ro, inner);
      for (int d = outer - 1; d >= 0; --d) {  // odometer step
        lo += plan.lstride[d];
        ro += plan.rstride[d];
        if (++idx[d] < plan.dims[d]) break;
        lo -= idx[d] * plan.lstride[d];
        ro -= idx[d] * plan.rstride[d];
        idx[d] = 0;
      }
    }
  });
}

namespace {

template <typename T>
struct CopyCtx {
  const T* in;
  T* out;
  int64_t stride;
  bool add;
};

template <typename T>
void CopyRun(const T* in, int64_t stride, T* out, int64_t n, bool add) {
  if (stride == 1) {
    if (add) {
      for (int64_t i = 0; i < n; ++i) Store(true, out + i, in[i]);
    } else {
      std::copy(in, in + n, out);
    }
  } else {
    const T v = in[0];
    if (add) {
      for (int64_t i = 0; i < n; ++i) Store(true, out + i, v);
    } else {
      std::fill(out, out + n, v);
    }
  }
}

template <typename T>
void CopyRow(void* ctx, int64_t oo, int64_t lo, int64_t /*ro*/, int64_t n) {
  const auto* c = static_cast<const CopyCtx<T>*>(ctx);
  CopyRun<T>(c->in + lo, c->stride, c->out + oo, n, c->add);
}

}  // namespace

void BroadcastCopyKernel(const TensorView& in, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  const bool add = req == OpReq::kAddTo;
  BroadcastPlan plan = MakeBroadcastPlan(in.shape, out.shape, out.shape);
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    CopyCtx<T> ctx{in.ptr<T>(), out.ptr<T>(), plan.lstride.back(), add};
    RunBroadcastRows(plan, 1, &CopyRow<T>, &ctx);
  })
}

}  // namespace elemwise_cpu
}  // namespace weft
