// CPU kernels of all_finite, multi_all_finite and multi_sum_sq: the rules of
// multi_check_rules.h in one loop per array.
#include "core/op/optim/multi_check_cpu.h"

#include "core/op/common/nnx_cpu.h"
#include "core/op/optim/multi_check_rules.h"

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
      for (int64_t i = 0; i < n && finite; ++i) finite = optim::FiniteValue(static_cast<double>(p[i]));
    });
    if (!finite) o[0] = 0.0f;
  }
}

void MultiSumSqCPU(const std::vector<TensorView>& in, const TensorView& out) {
  float* o = out.ptr<float>();
  for (size_t k = 0; k < in.size(); ++k) {
    double s = 0;
    WEFT_NNX_FLOAT_SWITCH(in[k].dtype, "multi_sum_sq", T, { s = optim::SumOfSquares(in[k].ptr<T>(), in[k].Size()); });
    o[k] = static_cast<float>(s);
  }
}

}  // namespace tensor_cpu
}  // namespace weft
