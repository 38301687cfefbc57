// CPU kernel of _contrib_allclose.
#include "core/op/elemwise/allclose_cpu.h"

#include "core/base/dtype.h"

namespace weft {
namespace tensor_cpu {

void AllCloseCPU(const tensor::CloseRule& rule, const TensorView& a, const TensorView& b, const TensorView& out) {
  bool all = true;
  WEFT_DTYPE_SWITCH(a.dtype, T, {
    const T* pa = a.ptr<T>();
    const T* pb = b.ptr<T>();
    const int64_t n = a.Size();
    for (int64_t i = 0; i < n && all; ++i) all = rule.Close(static_cast<double>(pa[i]), static_cast<double>(pb[i]));
  });
  out.ptr<int32_t>()[0] = all ? 1 : 0;
}

}  // namespace tensor_cpu
}  // namespace weft
