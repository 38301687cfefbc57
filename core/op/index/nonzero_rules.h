// What counts as nonzero for _npx_nonzero (np.nonzero), shared by the CPU
// kernel (nonzero.cc) and the GPU kernel (nonzero.cu): NumPy's truth value,
// so nan counts and -0.0 does not; the 16-bit floats are compared as floats.
#pragma once
#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

template <typename T>
WEFT_HD inline bool NonzeroAt(T v) {
  return static_cast<double>(v) != 0.0;
}

}  // namespace tensor
}  // namespace weft
