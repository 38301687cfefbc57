// GPU kernel of _contrib_allclose (allclose.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(AllCloseGpu);  // _contrib_allclose

}  // namespace cuda
}  // namespace weft
