// GPU kernels of _np_cumsum and _backward_np_cumsum: one thread per row of the
// (outer, n, inner) view, running the CPU's row rule (cumsum_rules.h).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/reduce/cumsum_rules.h"
#include "core/op/reduce/cumsum_gpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void Rows(const OpContext& ctx, const tensor::CumsumRows r, bool reverse, const T* in, bool add, T* out) {
  Launch(ctx, r.outer * r.inner, [=] WEFT_HD(int64_t row) { tensor::CumsumRow(r, row, reverse, in, add, out); });
}

void Cumsum(const OpContext& ctx, const char* op, const tensor::CumsumRows& rows, bool reverse, const TensorView& in,
            OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  const void* src = in.data;
  if (in.dtype != out.dtype) {
    WEFT_CHECK(req != OpReq::kAddTo, kInvalidArgument)
        << op << ": accumulating (grad_req add) into an output of another dtype than the input is not supported";
    CopyGpu(op)(ctx, Params(), {in}, {OpReq::kWriteTo}, {out});  // then the running sum in place
    src = out.data;
  }
  WEFT_GPU_ALL_SWITCH(out.dtype, op, T, {
    Rows<T>(ctx, rows, reverse, static_cast<const T*>(src), req == OpReq::kAddTo, out.ptr<T>());
  });
}

void CumsumForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Cumsum(ctx, "cumsum", tensor::CumsumRowsOf(p, in[0].shape), false, in[0], req[0], out[0]);
}

void CumsumBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Cumsum(ctx, "_backward_np_cumsum", tensor::CumsumRowsOf(p, in[1].shape), true, in[0], req[0], out[0]);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(CumsumGpu, CumsumForward)
WEFT_GPU_KERNEL_EXPORT(BackwardCumsumGpu, CumsumBackward)

}  // namespace cuda
}  // namespace weft
