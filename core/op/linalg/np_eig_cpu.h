// The CPU kernels of _npi_eig and _npi_eigvals (np_eig.cc), which their GPU
// kernels (np_linalg.cu) run on host copies: the general eigenproblem has no
// per-matrix GPU kernel here, and MXNet 1.9.1's GPU eig also solves on the
// host with LAPACK's geev.
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace linalg {

void EigCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace linalg
}  // namespace weft
