// GPU kernels of the NumPy where and boolean_mask_assign_scalar (np_where.cu),
// attached by np_where.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpWhereGpu);         // _npi_where
WEFT_GPU_KERNEL_DECL(NpWhereLScalarGpu);  // _npi_where_lscalar
WEFT_GPU_KERNEL_DECL(NpWhereRScalarGpu);  // _npi_where_rscalar
WEFT_GPU_KERNEL_DECL(NpWhereScalar2Gpu);  // _npi_where_scalar2
WEFT_GPU_KERNEL_DECL(NpBooleanMaskAssignScalarGpu);  // _npi_boolean_mask_assign_scalar

}  // namespace cuda
}  // namespace weft
