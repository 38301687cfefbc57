// GPU kernels of _np_cumsum and _backward_np_cumsum: one thread per row of the
// (outer, n, inner) view (cumsum_geom.h), the CPU's accumulation rules.
#include <type_traits>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/reduce/cumsum_geom.h"
#include "core/op/reduce/cumsum_gpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
struct CumAccOf {
  using type = typename std::conditional<std::is_same<T, double>::value, double, float>::type;
};
template <> struct CumAccOf<bool> { using type = uint64_t; };
template <> struct CumAccOf<uint8_t> { using type = uint8_t; };
template <> struct CumAccOf<int8_t> { using type = uint8_t; };
template <> struct CumAccOf<int32_t> { using type = uint32_t; };
template <> struct CumAccOf<int64_t> { using type = uint64_t; };

template <typename T>
void Rows(const OpContext& ctx, const tensor::CumsumRows r, bool reverse, const T* in, bool add, T* out) {
  using A = typename CumAccOf<T>::type;
  Launch(ctx, r.outer * r.inner, [=] WEFT_HD(int64_t row) {
    const int64_t base = (row / r.inner) * r.n * r.inner + row % r.inner;
    A acc = A(0);
    for (int64_t j = 0; j < r.n; ++j) {
      const int64_t k = base + (reverse ? r.n - 1 - j : j) * r.inner;
      acc = static_cast<A>(acc + static_cast<A>(in[k]));
      const T v = static_cast<T>(acc);
      out[k] = add ? static_cast<T>(static_cast<A>(out[k]) + static_cast<A>(v)) : v;
    }
  });
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
