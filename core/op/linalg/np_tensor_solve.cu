// GPU kernels of _npi_tensorinv, _npi_tensorsolve and their backward ops
// (np_tensor_solve.cc, Note [Tensor inverse and solve as reshaped matrices]):
// tensorinv runs _linalg_inverse's GPU kernel on the (P, P) views and its
// gradient is two GEMMs on the op's stream; tensorsolve and its gradient, a
// transposed copy around LU solves, run their CPU kernels on host copies of
// the arrays (as eig does on GPU, np_linalg.cu). float32/float64.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/host_run_gpu.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/np_tensor_solve_gpu.h"

namespace weft {
namespace cuda {
// Named: the CUDA build compiles a family's .cu files as one translation unit.
namespace np_tensor_solve_gpu {
namespace {

// The side P of the (P, P) matrix that a (its shape `a`) is, split after axis ind.
int64_t Side(const Shape& a, int64_t ind) { return a.ProdRange(0, static_cast<int>(ind)); }

TensorView Square(const TensorView& v, int64_t n) {
  TensorView r = v;
  r.shape = Shape({n, n});
  return r;
}

void Tensorinv(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t n = Side(in[0].shape, p.GetInt("ind"));
  const OpDef& inv = OpRegistry::Get()->FindOrThrow("_linalg_inverse");
  LinalgInverseGpu(ctx, Params::Parse(inv, {}), {Square(in[0], n)}, req, {Square(out[0], n)});
}

// dA = -X^T G X^T (G = out_grad, X = out, both (P, P)).
template <typename T>
void TensorinvBackwardT(const OpContext& ctx, const TensorView& g, const TensorView& x, OpReq req,
                        const TensorView& da, int64_t n) {
  T* t = static_cast<T*>(Scratch(ctx, sizeof(T) * static_cast<size_t>(2 * n * n)));
  T* d = t + n * n;
  DenseGemm(ctx, false, true, n, n, n, g.ptr<T>(), n, x.ptr<T>(), n, T(0), t, n);  // G X^T
  DenseGemm(ctx, true, false, n, n, n, x.ptr<T>(), n, t, n, T(0), d, n);           // X^T G X^T
  T* o = da.ptr<T>();
  Launch(ctx, n * n, [=] WEFT_HD(int64_t i) { Assign(o, i, req, -d[i]); });
}

void TensorinvBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t n = Side(out[0].shape, p.GetInt("ind"));
  WEFT_GPU_F32_F64_SWITCH(in[0].dtype, "_backward_npi_tensorinv", T,
                          TensorinvBackwardT<T>(ctx, in[0], in[1], req[0], out[0], n);)
}

void OnHost(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  WEFT_GPU_F32_F64_SWITCH(in[0].dtype, p.op()->name.c_str(), T, (void)sizeof(T);)
  RunOnHostCopies(p.op()->compute_cpu, ctx, p, in, req, out, in.size());
}

}  // namespace
}  // namespace np_tensor_solve_gpu

WEFT_GPU_KERNEL_EXPORT(NpTensorinvGpu, np_tensor_solve_gpu::Tensorinv)                  // _npi_tensorinv
WEFT_GPU_KERNEL_EXPORT(BackwardNpTensorinvGpu, np_tensor_solve_gpu::TensorinvBackward)  // _backward_npi_tensorinv
WEFT_GPU_KERNEL_EXPORT(NpTensorsolveGpu, np_tensor_solve_gpu::OnHost)                   // _npi_tensorsolve
WEFT_GPU_KERNEL_EXPORT(BackwardNpTensorsolveGpu, np_tensor_solve_gpu::OnHost)           // _backward_npi_tensorsolve

}  // namespace cuda
}  // namespace weft
