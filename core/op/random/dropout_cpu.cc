#include "core/op/random/dropout_cpu.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/op/common/nnx_cpu.h"

namespace weft {
namespace nnx_cpu {

void DropoutMask(std::mt19937_64& gen, double p, const TensorView& mask) {
  const double keep = 1.0 - p;
  WEFT_NNX_FLOAT_SWITCH(mask.dtype, "Dropout", T, {
    using A = Acc<T>;
    T* m = mask.ptr<T>();
    const A scale = keep > 0 ? static_cast<A>(1.0 / keep) : A(0);
    for (int64_t i = 0; i < mask.Size(); ++i) {
      const double u = static_cast<double>(gen() >> 11) * 0x1.0p-53;  // [0, 1)
      m[i] = static_cast<T>(u < keep ? scale : A(0));
    }
  })
}

}  // namespace nnx_cpu
}  // namespace weft
