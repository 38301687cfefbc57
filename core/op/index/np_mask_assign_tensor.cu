// GPU kernels of _npi_boolean_mask_assign_tensor and its value gradient: the
// CPU kernels on host copies (Note [Boolean-mask assignment of an array] in
// np_mask_assign_tensor.cc: the selection comes from the mask's values).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/index/np_mask_assign_tensor_cpu.h"
#include "core/op/index/np_mask_assign_tensor_gpu.h"

namespace weft {
namespace cuda {
namespace {

void NpMaskAssignTensorKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(index_np::MaskAssignTensorCompute, ctx, p, in, req, out, in.size());
}

void NpMaskAssignTensorValueGradKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(index_np::MaskAssignTensorValueGrad, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpMaskAssignTensorGpu, NpMaskAssignTensorKernel)
WEFT_GPU_KERNEL_EXPORT(NpMaskAssignTensorValueGradGpu, NpMaskAssignTensorValueGradKernel)

}  // namespace cuda
}  // namespace weft
