// CPU kernels of all_finite, multi_all_finite and multi_sum_sq.
#include "core/op/optim/multi_check_cpu.h"

#include <cmath>

#include "core/op/common/nnx_cpu.h"

namespace weft {
namespace tensor_cpu {

void AllFiniteCPU(const char* op, const std::vector<TensorView>& in, bool init, const TensorView& out) {
  float* o = out.ptr<float>();
  if (init) o[0] = 1.0f;
  for (const TensorView& x : in) {
    bool finite = true;
    WEFT_NNX_FLOAT_SWITCH(x.dtype, op, T, {
      const T* p = x.ptr<T>();
      const int64_t n = x.Size();
      for (int64_t i = 0; i < n && finite; ++i) finite = std::isfinite(static_cast<double>(p[i]));
    });
    if (!finite) o[0] = 0.0f;
  }
}

void MultiSumSqCPU(const std::vector<TensorView>& in, const TensorView& out) {
  float* o = out.ptr<float>();
  for (size_t k = 0; k < in.size(); ++k) {
    double s = 0;
    WEFT_NNX_FLOAT_SWITCH(in[k].dtype, "multi_sum_sq", T, {
      const T* p = in[k].ptr<T>();
      const int64_t n = in[k].Size();
      for (int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        s += v * v;
      }
    });
    o[k] = static_cast<float>(s);
  }
}

}  // namespace tensor_cpu
}  // namespace weft
