// GPU kernels of _npi_eigh/_npi_eigvalsh (np_eigh.cc) and _npi_pinv/
// _npi_pinv_scalar_rcond and their backward ops (np_pinv.cc): their CPU kernels (LAPACK's syevd and
// gesdd) on host copies, as _npi_eig's (np_linalg.cu). MXNet 1.9.1 solves
// these with cuSOLVER on the device; a per-matrix device eigensolver here
// would be a Jacobi sweep like _npi_svd's, not written yet (host copies keep
// the values the CPU's).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/np_eigh_cpu.h"

namespace weft {
namespace cuda {
namespace {

void EighGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  RunOnHostCopies(linalg::EighCompute, ctx, p, in, req, out, in.size());
}

void PinvGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  RunOnHostCopies(linalg::PinvCompute, ctx, p, in, req, out, in.size());
}

void PinvBackwardGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunOnHostCopies(linalg::PinvBackwardCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpEighGpu, EighGpu)
WEFT_GPU_KERNEL_EXPORT(NpPinvGpu, PinvGpu)
WEFT_GPU_KERNEL_EXPORT(NpPinvBackwardGpu, PinvBackwardGpu)

}  // namespace cuda
}  // namespace weft
