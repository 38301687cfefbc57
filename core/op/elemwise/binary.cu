// GPU kernels of the binary elementwise operators: same shape
// (core/op/elemwise/binary.cc), with a scalar (elemwise_scalar.cc) and with
// broadcasting (broadcast.cc). All three are one kernel per dtype over a
// collapsed broadcast plan (Note [Broadcast plan] in
// core/op/elemwise/elemwise_cpu.h) with the BinaryKind switched inside (Note
// [Elementwise GPU instantiations] in elemwise_math.cuh).
#include <vector>

#include "core/op/elemwise/broadcast_plan_gpu.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/elemwise/elemwise_math.cuh"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

using elem::BinaryKind;

// out[i] (req)= op(lhs, rhs) at i; a side given as a scalar (scalar_side 1:
// lhs, 2: rhs) takes sa / sb, already in the storage dtype.
template <typename T>
void BinaryLaunch(const OpContext& ctx, int kind, const BroadcastPlanGpu& plan, const T* a, const T* b, T sa, T sb,
                  int scalar_side, T* out, int64_t n, OpReq req) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    using C = elem::Acc<T>;
    int64_t lo, ro;
    BroadcastOffsets(plan, i, &lo, &ro);
    const C av = static_cast<C>(scalar_side == 1 ? sa : a[lo]);
    const C bv = static_cast<C>(scalar_side == 2 ? sb : b[ro]);
    elem::Put(out, i, req, elem::ToStorage<T>(elem::BinaryOp<C>(kind, av, bv)));
  });
}

// scalar_side 0: lhs and rhs are arrays; otherwise that side is `scalar`,
// converted to the dtype first (MXNet's DType(scalar)).
void BinaryGPU(const OpContext& ctx, const char* op, BinaryKind kind, const elemwise_cpu::BroadcastPlan& p,
               const TensorView& lhs, const TensorView& rhs, double scalar, int scalar_side, OpReq req,
               const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const BroadcastPlanGpu plan = ToBroadcastPlanGpu(p, op);
  WEFT_GPU_ALL_SWITCH(out.dtype, op, T, {
    const T s = elem::ToStorage<T>(scalar);
    BinaryLaunch<T>(ctx, static_cast<int>(kind), plan, lhs.ptr<T>(), rhs.ptr<T>(), s, s, scalar_side, out.ptr<T>(),
                    out.Size(), req);
  });
}

}  // namespace

FCompute BinarySameShapeGpu(BinaryKind kind, const char* name) {
  return [kind, name](const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    BinaryGPU(ctx, name, kind, elemwise_cpu::FlatPlan(out[0].Size(), 1, 1), in[0], in[1], 0.0, 0, req[0], out[0]);
  };
}

FCompute BinaryBroadcastGpu(BinaryKind kind, const char* name) {
  return [kind, name](const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    BinaryGPU(ctx, name, kind, elemwise_cpu::MakeBroadcastPlan(in[0].shape, in[1].shape, out[0].shape), in[0], in[1],
              0.0, 0, req[0], out[0]);
  };
}

FCompute BinaryScalarGpu(BinaryKind kind, bool scalar_on_left, const char* name) {
  return [kind, scalar_on_left, name](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    const int64_t n = out[0].Size();
    const double s = p.GetFloat("scalar");
    if (scalar_on_left) BinaryGPU(ctx, name, kind, elemwise_cpu::FlatPlan(n, 0, 1), in[0], in[0], s, 1, req[0], out[0]);
    else BinaryGPU(ctx, name, kind, elemwise_cpu::FlatPlan(n, 1, 0), in[0], in[0], s, 2, req[0], out[0]);
  };
}

}  // namespace cuda
}  // namespace weft
