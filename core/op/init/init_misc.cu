// GPU kernels of _arange and _eye (core/op/init/init.cc; CPU: core/op/init/init_cpu.cc).
// The fills are in init.cu.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/op/elemwise/elemwise_math.cuh"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

using elem::Acc;
using elem::ToStorage;

// out[i] (req)= v, a double converted to D by tensor_cpu::ConvertCopy's rules
// (the CPU computes the values in float64 and copies them into out): with
// kAddTo into another dtype the sum is taken in double, then converted.
template <typename D>
WEFT_HD inline void PutDouble(D* out, int64_t i, OpReq req, double v) {
  if (req != OpReq::kAddTo) out[i] = ToStorage<D>(v);
  else if constexpr (std::is_same<D, double>::value) out[i] = static_cast<D>(static_cast<double>(out[i]) + v);
  else out[i] = ToStorage<D>(static_cast<double>(static_cast<Acc<D>>(out[i])) + v);
}

// a * b rounded on its own: nvcc would contract `start + k * step` into an
// FMA, one rounding instead of the CPU's two, and a value just below an
// integer could then truncate differently in an integer dtype.
WEFT_HD inline double MulRounded(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

template <typename D>
void ArangeLaunch(const OpContext& ctx, D* out, int64_t n, OpReq req, double start, double step, int64_t repeat) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    PutDouble(out, i, req, start + MulRounded(static_cast<double>(i / repeat), step));
  });
}

// PlanRange of core/op/init/init.cc, less the size (the output's shape has it).
void Arange(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  double start = p.GetFloat("start");
  const double step = p.GetFloat("step");
  const int64_t repeat = p.GetInt("repeat");
  WEFT_CHECK(step != 0, kInvalidArgument) << "_arange: parameter 'step' cannot be 0";
  WEFT_CHECK(repeat >= 1, kInvalidArgument) << "_arange: parameter 'repeat' must be >= 1, got " << repeat;
  if (p.IsNone("stop") && !p.GetBool("infer_range")) start = 0;  // [0, start)
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_arange",
                      D, { ArangeLaunch<D>(ctx, out[0].ptr<D>(), out[0].Size(), req[0], start, step, repeat); });
}

// out[r, c] (req)= (c - r == k); kAddTo adds in the dtype, as the CPU's
// WriteWithReq + AddInto.
template <typename D>
void EyeLaunch(const OpContext& ctx, D* out, int64_t rows, int64_t cols, int64_t k, OpReq req) {
  Launch(ctx, rows * cols, [=] WEFT_HD(int64_t i) {
    const D v = static_cast<D>(i % cols - i / cols == k ? 1 : 0);
    elem::Put(out, i, req, v);
  });
}

void Eye(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t k = p.GetInt("k");
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_eye", D,
                      { EyeLaunch<D>(ctx, out[0].ptr<D>(), out[0].shape[0], out[0].shape[1], k, req[0]); });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ArangeGpu, Arange)  // _arange
WEFT_GPU_KERNEL_EXPORT(EyeGpu, Eye)  // _eye

}  // namespace cuda
}  // namespace weft
