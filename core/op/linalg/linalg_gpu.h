// The GPU kernels of the linalg family (linalg_blas3.cu, linalg_factor.cu,
// linalg_diag.cu), attached by the declarations in blas3.cc, factor.cc and
// diag.cc with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in
// core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(LinalgGemmGpu);  // _linalg_gemm, _linalg_gemm2
WEFT_GPU_KERNEL_DECL(LinalgTrmmGpu);
WEFT_GPU_KERNEL_DECL(LinalgTrsmGpu);
WEFT_GPU_KERNEL_DECL(LinalgSyrkGpu);
WEFT_GPU_KERNEL_DECL(LinalgPotrfGpu);
WEFT_GPU_KERNEL_DECL(LinalgPotriGpu);
WEFT_GPU_KERNEL_DECL(LinalgInverseGpu);
WEFT_GPU_KERNEL_DECL(LinalgDetGpu);
WEFT_GPU_KERNEL_DECL(LinalgSlogdetGpu);
WEFT_GPU_KERNEL_DECL(LinalgBackwardDetGpu);  // _backward_linalg_det
WEFT_GPU_KERNEL_DECL(LinalgBackwardSlogdetGpu);
WEFT_GPU_KERNEL_DECL(LinalgGelqfGpu);
WEFT_GPU_KERNEL_DECL(LinalgSyevdGpu);
WEFT_GPU_KERNEL_DECL(LinalgSumLogDiagGpu);
WEFT_GPU_KERNEL_DECL(LinalgExtractDiagGpu);
WEFT_GPU_KERNEL_DECL(LinalgMakeDiagGpu);
WEFT_GPU_KERNEL_DECL(LinalgExtractTrianGpu);
WEFT_GPU_KERNEL_DECL(LinalgMakeTrianGpu);
WEFT_GPU_KERNEL_DECL(KhatriRaoGpu);  // khatri_rao.cu
WEFT_GPU_KERNEL_DECL(NpSvdGpu);  // np_linalg.cu: _npi_svd
WEFT_GPU_KERNEL_DECL(NpSvdBackwardGpu);
WEFT_GPU_KERNEL_DECL(NpSolveGpu);
WEFT_GPU_KERNEL_DECL(NpSolveBackwardGpu);
WEFT_GPU_KERNEL_DECL(NpEigGpu);  // _npi_eig, _npi_eigvals (on host copies)
WEFT_GPU_KERNEL_DECL(NpEighGpu);  // np_linalg_host.cu: _npi_eigh, _npi_eigvalsh (on host copies)
WEFT_GPU_KERNEL_DECL(NpPinvGpu);  // _npi_pinv, _npi_pinv_scalar_rcond (on host copies)
WEFT_GPU_KERNEL_DECL(NpPinvBackwardGpu);  // _backward_npi_pinv(_scalar_rcond)

}  // namespace cuda
}  // namespace weft
