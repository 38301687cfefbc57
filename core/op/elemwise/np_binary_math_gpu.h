// GPU kernels of the NumPy binary functions (np_binary_math.cu), attached by
// np_binary_math.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpArctan2Gpu);          // _npi_arctan2
WEFT_GPU_KERNEL_DECL(NpArctan2ScalarGpu);    // _npi_arctan2_scalar
WEFT_GPU_KERNEL_DECL(NpRArctan2ScalarGpu);   // _npi_rarctan2_scalar
WEFT_GPU_KERNEL_DECL(NpCopysignGpu);         // _npi_copysign
WEFT_GPU_KERNEL_DECL(NpCopysignScalarGpu);   // _npi_copysign_scalar
WEFT_GPU_KERNEL_DECL(NpRCopysignScalarGpu);  // _npi_rcopysign_scalar
WEFT_GPU_KERNEL_DECL(NpLdexpGpu);            // _npi_ldexp
WEFT_GPU_KERNEL_DECL(NpLdexpScalarGpu);      // _npi_ldexp_scalar
WEFT_GPU_KERNEL_DECL(NpRLdexpScalarGpu);     // _npi_rldexp_scalar
WEFT_GPU_KERNEL_DECL(NpLcmGpu);              // _npi_lcm
WEFT_GPU_KERNEL_DECL(NpLcmScalarGpu);        // _npi_lcm_scalar

}  // namespace cuda
}  // namespace weft
