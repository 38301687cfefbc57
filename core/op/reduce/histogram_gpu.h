// GPU kernel of _histogram (histogram.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(HistogramGpu);  // _histogram

}  // namespace cuda
}  // namespace weft
