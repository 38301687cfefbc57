// GPU kernels of _contrib_arange_like and _contrib_index_array (index_fill.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ArangeLikeGpu);  // _contrib_arange_like
WEFT_GPU_KERNEL_DECL(IndexArrayGpu);  // _contrib_index_array

}  // namespace cuda
}  // namespace weft
