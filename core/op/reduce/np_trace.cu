// GPU kernels of _np_trace and _backward_np_trace (np_trace.cc): one thread
// per output element (forward) or input element (backward) running
// np_trace_rules.h (Note [Trace over a five-axis view]).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/reduce/np_trace_gpu.h"
#include "core/op/reduce/np_trace_rules.h"

namespace weft {
namespace cuda {
namespace {

// Every GPU dtype but bool (refused by type inference).
#define WEFT_TRACE_SWITCH(dt, op, T, ...)                                         \
  switch (dt) {                                                                   \
    case DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }                 \
    case DType::kInt8: { using T = int8_t; __VA_ARGS__ break; }                   \
    case DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }                 \
    case DType::kInt64: { using T = int64_t; __VA_ARGS__ break; }                 \
    default: WEFT_GPU_REAL_SWITCH(dt, op, T, __VA_ARGS__);                        \
  }

void Trace(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  Shape shape;
  const tensor::TraceGeom g = tensor::TraceGeomOf("_np_trace", p, in[0].shape, &shape);
  const OpReq r = req[0];
  WEFT_TRACE_SWITCH(in[0].dtype, "_np_trace", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t o) { tensor::TraceOut<T>(g, o, x, r, y); });
  });
}

void TraceBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  Shape shape;
  const tensor::TraceGeom g = tensor::TraceGeomOf("_backward_np_trace", p, in[1].shape, &shape);
  const OpReq r = req[0];
  WEFT_TRACE_SWITCH(out[0].dtype, "_backward_np_trace", T, {
    const T* gy = in[0].ptr<T>();
    T* gx = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { tensor::TraceGradIn<T>(g, i, gy, r, gx); });
  });
}

#undef WEFT_TRACE_SWITCH

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpTraceGpu, Trace)                   // _np_trace
WEFT_GPU_KERNEL_EXPORT(BackwardNpTraceGpu, TraceBackward)   // _backward_np_trace

}  // namespace cuda
}  // namespace weft
