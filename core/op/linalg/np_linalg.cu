// GPU kernels of _npi_svd, _npi_solve and their backward ops (declarations and
// CPU kernels: np_svd.cc, np_solve.cc), and of _npi_eig/_npi_eigvals (np_eig.cc,
// run on host copies). One thread per matrix of the batch in
// double scratch, as the family's other kernels (linalg_factor.cu): one-sided
// Jacobi for the SVD with the CPU's sign rule (Note [SVD signs]), LU with
// LAPACK's pivot choice for the solves. cuSOLVER (gesvdjBatched,
// getrfBatched/getrsBatched) would be the production path; these are for
// small matrices and for checking against the CPU. A singular A gives
// inf/NaN here; the CPU kernel raises an error.
#include <cmath>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/host_run_gpu.h"
#include "core/op/linalg/np_eig_cpu.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_gpu_util.cuh"
#include "core/op/linalg/lu_rules.h"
#include "core/op/linalg/np_linalg_rules.h"

namespace weft {
namespace cuda {
namespace {

using linalg_gpu::OutSlot;
using linalg_gpu::ScratchPlan;

template <typename T>
void SvdT(const OpContext& ctx, const TensorView& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  const int nd = in.ndim();
  const int64_t m = in.shape[nd - 2], n = in.shape[nd - 1], k = m < n ? m : n;
  if (k == 0 || in.Size() == 0) return;
  const int64_t batch = in.Size() / (m * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(batch * (m * n + k * k)));
  OutSlot<T> u, s, v;
  u.Plan(&plan, out[0], req[0]);
  s.Plan(&plan, out[1], req[1]);
  v.Plan(&plan, out[2], req[2]);
  // An output not wanted (kNull) still gets written: into scratch.
  const size_t ut = plan.Add(sizeof(T) * static_cast<size_t>(out[0].Size()));
  const size_t st = plan.Add(sizeof(T) * static_cast<size_t>(out[1].Size()));
  const size_t vt = plan.Add(sizeof(T) * static_cast<size_t>(out[2].Size()));
  plan.Allocate(ctx);
  u.Bind(plan);
  s.Bind(plan);
  v.Bind(plan);
  double* W = plan.At<double>(wat);
  const T* A = in.ptr<T>();
  T* U = req[0] == OpReq::kNull ? plan.At<T>(ut) : u.dst;
  T* S = req[1] == OpReq::kNull ? plan.At<T>(st) : s.dst;
  T* V = req[2] == OpReq::kNull ? plan.At<T>(vt) : v.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* w = W + b * (m * n + k * k);
    linalg::JacobiSvd(A + b * m * n, m, n, w, w + m * n, U + b * m * k, S + b * k, V + b * k * n);
  });
  if (req[0] != OpReq::kNull) u.AddBack(ctx);
  if (req[1] != OpReq::kNull) s.AddBack(ctx);
  if (req[2] != OpReq::kNull) v.AddBack(ctx);
}

template <typename T>
void SvdBackwardT(const OpContext& ctx, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const int nd = out.ndim();
  const int64_t m = out.shape[nd - 2], n = out.shape[nd - 1], k = m < n ? m : n;
  if (out.Size() == 0) return;
  const int64_t batch = out.Size() / (m * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(batch * (3 * k * k + m * n)));
  OutSlot<T> o;
  o.Plan(&plan, out, req);
  plan.Allocate(ctx);
  o.Bind(plan);
  double* W = plan.At<double>(wat);
  const T *dU = in[0].ptr<T>(), *dS = in[1].ptr<T>(), *dV = in[2].ptr<T>();
  const T *U = in[3].ptr<T>(), *S = in[4].ptr<T>(), *V = in[5].ptr<T>();
  T* O = o.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    T* ob = O + b * m * n;
    if (k == 0) {
      for (int64_t i = 0; i < m * n; ++i) ob[i] = T(0);
      return;
    }
    linalg::SvdBackward(dU + b * m * k, dS + b * k, dV + b * k * n, U + b * m * k, S + b * k, V + b * k * n, m, n,
                        W + b * (3 * k * k + m * n), ob);
  });
  o.AddBack(ctx);
}

// Right-hand sides per matrix: B (..., n, K) or, one axis fewer than A, (..., n).
inline int64_t Nrhs(const TensorView& a, const TensorView& b) {
  return b.ndim() == a.ndim() ? b.shape[b.ndim() - 1] : 1;
}

template <typename T>
void SolveT(const OpContext& ctx, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const int64_t n = linalg_gpu::LastDim(in[0]), nrhs = Nrhs(in[0], in[1]);
  if (in[0].Size() == 0 || out.Size() == 0) return;
  const int64_t batch = in[0].Size() / (n * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(batch * (n * n + n * nrhs)));
  const size_t pat = plan.Add(sizeof(int32_t) * static_cast<size_t>(batch * n));
  OutSlot<T> o;
  o.Plan(&plan, out, req);
  plan.Allocate(ctx);
  o.Bind(plan);
  double* W = plan.At<double>(wat);
  int32_t* P = plan.At<int32_t>(pat);
  const T *A = in[0].ptr<T>(), *B = in[1].ptr<T>();
  T* O = o.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* lu = W + b * (n * n + n * nrhs);
    double* x = lu + n * n;
    for (int64_t i = 0; i < n * n; ++i) lu[i] = static_cast<double>(A[b * n * n + i]);
    for (int64_t i = 0; i < n * nrhs; ++i) x[i] = static_cast<double>(B[b * n * nrhs + i]);
    linalg::LuInPlace(lu, n, P + b * n);
    linalg::SolveFromLu(lu, P + b * n, n, nrhs, x);
    for (int64_t i = 0; i < n * nrhs; ++i) O[b * n * nrhs + i] = static_cast<T>(x[i]);
  });
  o.AddBack(ctx);
}

// Inputs: G, A, X. B_grad = A^-T G (LU of A^T), A_grad = -B_grad X^T.
template <typename T>
void SolveBackwardT(const OpContext& ctx, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                    const std::vector<TensorView>& out) {
  const int64_t n = linalg_gpu::LastDim(in[1]), nrhs = Nrhs(in[1], in[2]);
  if (in[1].Size() == 0) return;
  const int64_t batch = in[1].Size() / (n * n);
  ScratchPlan plan;
  const size_t wat = plan.Add(sizeof(double) * static_cast<size_t>(batch * (n * n + n * nrhs)));
  const size_t pat = plan.Add(sizeof(int32_t) * static_cast<size_t>(batch * n));
  OutSlot<T> da, db;
  da.Plan(&plan, out[0], req[0]);
  db.Plan(&plan, out[1], req[1]);
  plan.Allocate(ctx);
  da.Bind(plan);
  db.Bind(plan);
  double* W = plan.At<double>(wat);
  int32_t* P = plan.At<int32_t>(pat);
  const T *G = in[0].ptr<T>(), *A = in[1].ptr<T>(), *X = in[2].ptr<T>();
  T* DA = req[0] == OpReq::kNull ? nullptr : da.dst;
  T* DB = req[1] == OpReq::kNull ? nullptr : db.dst;
  Launch(ctx, batch, [=] WEFT_HD(int64_t b) {
    double* lu = W + b * (n * n + n * nrhs);
    double* y = lu + n * n;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c) lu[r * n + c] = static_cast<double>(A[b * n * n + c * n + r]);
    for (int64_t i = 0; i < n * nrhs; ++i) y[i] = static_cast<double>(G[b * n * nrhs + i]);
    linalg::LuInPlace(lu, n, P + b * n);
    linalg::SolveFromLu(lu, P + b * n, n, nrhs, y);
    if (DB != nullptr)
      for (int64_t i = 0; i < n * nrhs; ++i) DB[b * n * nrhs + i] = static_cast<T>(y[i]);
    if (DA != nullptr)
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c) {
          double acc = 0;
          for (int64_t j = 0; j < nrhs; ++j) acc += y[r * nrhs + j] * static_cast<double>(X[(b * n + c) * nrhs + j]);
          DA[(b * n + r) * n + c] = static_cast<T>(-acc);
        }
  });
  if (req[0] != OpReq::kNull) da.AddBack(ctx);
  if (req[1] != OpReq::kNull) db.AddBack(ctx);
}

#define NP_LINALG_GPU_ENTRY(Name, op_name, body)                                          \
  void Name(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,     \
            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {          \
    (void)p;                                                                              \
    WEFT_GPU_F32_F64_SWITCH(in[0].dtype, op_name, T, body)                                 \
  }

NP_LINALG_GPU_ENTRY(SvdGpu, "_npi_svd", SvdT<T>(ctx, in[0], req, out);)
NP_LINALG_GPU_ENTRY(SvdBackwardGpu, "_backward_npi_svd",
                    if (req[0] != OpReq::kNull) SvdBackwardT<T>(ctx, in, req[0], out[0]);)
NP_LINALG_GPU_ENTRY(SolveGpu, "_npi_solve", if (req[0] != OpReq::kNull) SolveT<T>(ctx, in, req[0], out[0]);)
NP_LINALG_GPU_ENTRY(SolveBackwardGpu, "_backward_npi_solve", SolveBackwardT<T>(ctx, in, req, out);)

#undef NP_LINALG_GPU_ENTRY

// np_eig_cpu.h: LAPACK's geev on host copies, as MXNet 1.9.1's GPU eig.
void EigGpu(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  WEFT_GPU_F32_F64_SWITCH(in[0].dtype, p.op()->name.c_str(), T, (void)sizeof(T);)
  RunOnHostCopies(linalg::EigCompute, ctx, p, in, req, out, in.size());
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpSvdGpu, SvdGpu)
WEFT_GPU_KERNEL_EXPORT(NpSvdBackwardGpu, SvdBackwardGpu)
WEFT_GPU_KERNEL_EXPORT(NpSolveGpu, SolveGpu)
WEFT_GPU_KERNEL_EXPORT(NpSolveBackwardGpu, SolveBackwardGpu)
WEFT_GPU_KERNEL_EXPORT(NpEigGpu, EigGpu)

}  // namespace cuda
}  // namespace weft
