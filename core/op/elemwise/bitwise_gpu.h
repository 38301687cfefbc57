// GPU kernels of the NumPy bit ops (bitwise.cu), attached by bitwise.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(BitwiseAndGpu);        // _npi_bitwise_and
WEFT_GPU_KERNEL_DECL(BitwiseOrGpu);         // _npi_bitwise_or
WEFT_GPU_KERNEL_DECL(BitwiseXorGpu);        // _npi_bitwise_xor
WEFT_GPU_KERNEL_DECL(BitwiseAndScalarGpu);  // _npi_bitwise_and_scalar
WEFT_GPU_KERNEL_DECL(BitwiseOrScalarGpu);   // _npi_bitwise_or_scalar
WEFT_GPU_KERNEL_DECL(BitwiseXorScalarGpu);  // _npi_bitwise_xor_scalar
WEFT_GPU_KERNEL_DECL(BitwiseNotGpu);        // _npi_bitwise_not

}  // namespace cuda
}  // namespace weft
