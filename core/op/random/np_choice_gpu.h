// GPU kernel of _npi_choice (np_choice.cu), attached by np_choice.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpChoiceGpu);  // _npi_choice

}  // namespace cuda
}  // namespace weft
