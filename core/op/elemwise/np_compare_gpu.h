// GPU kernels of the NumPy comparisons and predicates (np_compare.cu),
// attached by np_compare.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpEqualGpu);               // _npi_equal
WEFT_GPU_KERNEL_DECL(NpNotEqualGpu);            // _npi_not_equal
WEFT_GPU_KERNEL_DECL(NpGreaterGpu);             // _npi_greater
WEFT_GPU_KERNEL_DECL(NpGreaterEqualGpu);        // _npi_greater_equal
WEFT_GPU_KERNEL_DECL(NpLessGpu);                // _npi_less
WEFT_GPU_KERNEL_DECL(NpLessEqualGpu);           // _npi_less_equal
WEFT_GPU_KERNEL_DECL(NpEqualScalarGpu);         // _npi_equal_scalar
WEFT_GPU_KERNEL_DECL(NpNotEqualScalarGpu);      // _npi_not_equal_scalar
WEFT_GPU_KERNEL_DECL(NpGreaterScalarGpu);       // _npi_greater_scalar
WEFT_GPU_KERNEL_DECL(NpGreaterEqualScalarGpu);  // _npi_greater_equal_scalar
WEFT_GPU_KERNEL_DECL(NpLessScalarGpu);          // _npi_less_scalar
WEFT_GPU_KERNEL_DECL(NpLessEqualScalarGpu);     // _npi_less_equal_scalar
WEFT_GPU_KERNEL_DECL(NpIsNanGpu);               // _npi_isnan
WEFT_GPU_KERNEL_DECL(NpIsInfGpu);               // _npi_isinf
WEFT_GPU_KERNEL_DECL(NpIsFiniteGpu);            // _npi_isfinite
WEFT_GPU_KERNEL_DECL(NpIsPosInfGpu);            // _npi_isposinf
WEFT_GPU_KERNEL_DECL(NpIsNegInfGpu);            // _npi_isneginf
WEFT_GPU_KERNEL_DECL(NpLogicalNotGpu);          // _npi_logical_not

}  // namespace cuda
}  // namespace weft
