// GPU kernel of _npi_percentile (np_percentile.cu), attached by np_percentile.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpPercentileGpu);  // _npi_percentile

}  // namespace cuda
}  // namespace weft
