// GPU kernels of _npi_around and _npi_nan_to_num (np_unary_math.cc), one
// thread per element running np_unary_math_rules.h as the CPU kernels do.
#include <type_traits>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/half_hd.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/np_unary_math_gpu.h"
#include "core/op/elemwise/np_unary_math_rules.h"

namespace weft {
namespace cuda {
namespace {

void NpAroundKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t decimals = p.GetInt("decimals");
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_npi_around", T, {
    const T* a = static_cast<const T*>(in[0].data);
    T* o = static_cast<T*>(out[0].data);
    if constexpr (std::is_same<T, bool>::value) {
      UnsupportedDType("_npi_around", in[0].dtype);
    } else if constexpr (std::is_integral<T>::value) {
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
        nnm::Put(o, i, r, decimals >= 0 ? a[i] : tensor::AroundInt<T>(a[i], decimals));
      });
    } else {
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, tensor::AroundFloat<T>(a[i], decimals)); });
    }
  });
}

void NpNanToNumKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const DType dt = in[0].dtype;
  const double nan = p.GetFloat("nan");
  const double posinf = p.IsNone("posinf") ? tensor::NanToNumLimit(dt, false) : p.GetFloat("posinf");
  const double neginf = p.IsNone("neginf") ? tensor::NanToNumLimit(dt, true) : p.GetFloat("neginf");
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(dt, "_npi_nan_to_num", T, {
    const T* a = static_cast<const T*>(in[0].data);
    T* o = static_cast<T*>(out[0].data);
    if constexpr (std::is_integral<T>::value) {
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, a[i]); });
    } else {
      const T vn = static_cast<T>(nan), vp = static_cast<T>(posinf), vm = static_cast<T>(neginf);
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, tensor::NanToNum<T>(a[i], vn, vp, vm)); });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpAroundGpu, NpAroundKernel)
WEFT_GPU_KERNEL_EXPORT(NpNanToNumGpu, NpNanToNumKernel)

}  // namespace cuda
}  // namespace weft
