// The CPU's collapsed broadcast plan (Note [Broadcast plan] in elemwise_cpu.h)
// as a value a GPU kernel can capture, each output index's input offsets under
// it, and the launch of a broadcasting binary rule over it: shared by the
// family's binary kernels (binary.cu, bitwise.cu, np_compare.cu,
// np_binary_math.cu).
#pragma once
#include <cstdint>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/elemwise_cpu.h"

namespace weft {
namespace cuda {

struct BroadcastPlanGpu {
  int nd = 1;
  int64_t dims[kMaxDims] = {};
  int64_t ls[kMaxDims] = {};  // element strides of lhs (0: broadcast)
  int64_t rs[kMaxDims] = {};  // and of rhs
};

// kShape naming op when the collapsed plan has more dims than a kernel captures.
inline BroadcastPlanGpu ToBroadcastPlanGpu(const elemwise_cpu::BroadcastPlan& p, const char* op) {
  const int nd = static_cast<int>(p.dims.size());
  WEFT_CHECK(nd <= kMaxDims, kShape) << op << ": GPU kernels take at most " << kMaxDims
                                     << " dimensions after collapsing, got " << nd;
  BroadcastPlanGpu b;
  b.nd = nd;
  for (int d = 0; d < nd; ++d) {
    b.dims[d] = p.dims[d];
    b.ls[d] = p.lstride[d];
    b.rs[d] = p.rstride[d];
  }
  return b;
}

// The lhs and rhs element offsets of output index i.
WEFT_HD inline void BroadcastOffsets(const BroadcastPlanGpu& plan, int64_t i, int64_t* lo, int64_t* ro) {
  int64_t l = 0, r = 0;
  if (plan.nd == 1) {
    l = i * plan.ls[0];
    r = i * plan.rs[0];
  } else {
    int64_t rem = i;
    for (int d = plan.nd - 1; d >= 0; --d) {
      const int64_t k = rem % plan.dims[d];
      rem /= plan.dims[d];
      l += k * plan.ls[d];
      r += k * plan.rs[d];
    }
  }
  *lo = l;
  *ro = r;
}

// out (req)= f(a, b) broadcast from in[0] (elements TI) and in[1] (TI) into
// out (TO), one thread per output element; f is a WEFT_HD callable. What the
// family's broadcasting NumPy kernels (comparisons, bit ops, binary math) each
// wrote out: plan, offsets, rule, store.
template <typename TI, typename TO, typename F>
void LaunchBroadcast(const OpContext& ctx, const char* op, const std::vector<TensorView>& in, OpReq req,
                     const TensorView& out, F f) {
  const BroadcastPlanGpu plan =
      ToBroadcastPlanGpu(elemwise_cpu::MakeBroadcastPlan(in[0].shape, in[1].shape, out.shape), op);
  const TI* a = static_cast<const TI*>(in[0].data);
  const TI* b = static_cast<const TI*>(in[1].data);
  TO* o = static_cast<TO*>(out.data);
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    int64_t lo, ro;
    BroadcastOffsets(plan, i, &lo, &ro);
    nnm::Put(o, i, req, f(a[lo], b[ro]));
  });
}

}  // namespace cuda
}  // namespace weft
