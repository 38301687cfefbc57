// The GPU kernels of core/op/loss/ctc_loss.cu, attached by the op declarations
// with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/op/loss/ctc_loss_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace nnm {
// The geometry of a CTCLoss call on data (T, N, C) and label (N, Lmax) (ctc_loss.cc).
CtcGeom CtcGeomOf(const Params& p, const Shape& data, const Shape& label);
}  // namespace nnm

namespace cuda {

WEFT_GPU_KERNEL_DECL(CTCLossGpu);  // CTCLoss
WEFT_GPU_KERNEL_DECL(BackwardCTCLossGpu);  // _backward_ctc_loss

}  // namespace cuda
}  // namespace weft
