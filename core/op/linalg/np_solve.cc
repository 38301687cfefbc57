// _npi_solve (np.linalg.solve, MXNet 1.9.1's registered name) and its
// backward op, batched over the leading axes. CPU over LAPACK's getrf/getrs,
// GPU in np_linalg.cu (LU with partial pivoting, lu_rules.h).
//
// Note [Solve right-hand sides]
// As MXNet 1.9.1's solve (and NumPy before 2.0): B (..., M, K) is a batch of
// matrices, and B (..., M), one axis fewer than A, a batch of vectors; the
// leading axes of A and B must be equal (MXNet does not broadcast them).
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/lapack_cpu.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// n (A is n x n), nrhs (columns of each right-hand side) and the batch.
struct SolveDims {
  int64_t n, nrhs, batch;
};
SolveDims SolveDimsOf(const Shape& a, const Shape& b) {
  const int nd = a.ndim();
  SolveDims d{a[nd - 1], b.ndim() == nd ? b[nd - 1] : 1, 1};
  for (int i = 0; i < nd - 2; ++i) d.batch *= a[i];
  return d;
}

// Solves op(A_b) X = R for every matrix b of the batch. Note [Row-major
// LAPACK]: the row-major A is column-major A^T, so getrs with trans solves
// A X = R and without it A^T X = R. R and X are row-major n x nrhs; getrs
// wants them column-major, hence the transposed copies. `what` names the op
// in the singular-matrix error.
template <typename T>
void SolveBatch(const char* what, const T* A, const T* R, T* X, const SolveDims& d, bool transpose_a) {
  ParallelFor(d.batch, d.n * d.n * d.n, [&](int64_t begin, int64_t end) {
    std::vector<T> lu(static_cast<size_t>(d.n * d.n)), col(static_cast<size_t>(d.n * d.nrhs));
    std::vector<int> ipiv(static_cast<size_t>(d.n));
    for (int64_t b = begin; b < end; ++b) {
      std::memcpy(lu.data(), A + b * d.n * d.n, sizeof(T) * lu.size());
      const int info = lapack::Getrf(d.n, lu.data(), d.n, ipiv.data());
      WEFT_CHECK(info == 0, kInvalidArgument) << what << ": input 'A' (matrix " << b
                                              << " of the batch) is singular (LAPACK getrf info " << info << ")";
      const T* r = R + b * d.n * d.nrhs;
      for (int64_t i = 0; i < d.n; ++i)
        for (int64_t j = 0; j < d.nrhs; ++j) col[static_cast<size_t>(i + j * d.n)] = r[i * d.nrhs + j];
      lapack::Getrs(!transpose_a, d.n, d.nrhs, lu.data(), d.n, ipiv.data(), col.data(), d.n);
      T* x = X + b * d.n * d.nrhs;
      for (int64_t i = 0; i < d.n; ++i)
        for (int64_t j = 0; j < d.nrhs; ++j) x[i * d.nrhs + j] = col[static_cast<size_t>(i + j * d.n)];
    }
  });
}

void SolveCompute(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                  const std::vector<TensorView>& out) {
  const SolveDims d = SolveDimsOf(in[0].shape, in[1].shape);
  if (d.batch * d.n * d.nrhs == 0) return;
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* X) {
      SolveBatch<T>("_npi_solve", in[0].ptr<T>(), in[1].ptr<T>(), X, d, false);
    });
  })
}

// Inputs: out_grad G, A, X (the forward output). dB = A^-T G, dA = -dB X^T.
void SolveBackwardCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const SolveDims d = SolveDimsOf(in[1].shape, in[2].shape);
  if (d.batch * d.n == 0) return;
  WEFT_LINALG_REAL(out[0].dtype, T, {
    std::vector<T> dB(static_cast<size_t>(d.batch * d.n * d.nrhs));
    if (d.nrhs > 0) SolveBatch<T>("_backward_npi_solve", in[1].ptr<T>(), in[0].ptr<T>(), dB.data(), d, true);
    const T* X = in[2].ptr<T>();
    T* dA = out[0].ptr<T>();
    for (int64_t b = 0; b < d.batch; ++b)
      for (int64_t i = 0; i < d.n; ++i)
        for (int64_t j = 0; j < d.n; ++j) {
          double acc = 0;
          for (int64_t c = 0; c < d.nrhs; ++c)
            acc += static_cast<double>(dB[static_cast<size_t>((b * d.n + i) * d.nrhs + c)]) *
                   static_cast<double>(X[(b * d.n + j) * d.nrhs + c]);
          StoreReq(req[0], dA + (b * d.n + i) * d.n + j, static_cast<T>(-acc));
        }
    T* db = out[1].ptr<T>();
    for (size_t i = 0; i < dB.size(); ++i) StoreReq(req[1], db + i, dB[i]);
  })
}

// Note [Solve right-hand sides].
void CheckRhs(const std::string& op, const Shape& a, const Shape& b) {
  linalg::CheckSquare(op, "A", a);
  const int nd = a.ndim();
  const bool vec = b.ndim() == nd - 1, mat = b.ndim() == nd;
  bool ok = (vec || mat) && b[nd - 2] == a[nd - 1];
  for (int i = 0; ok && i < nd - 2; ++i) ok = a[i] == b[i];
  WEFT_CHECK(ok, kShape) << op << ": input 'B' " << b.ToString() << " does not fit 'A' " << a.ToString()
                         << ": expected A's leading axes followed by (" << a[nd - 1] << ",) for vectors or ("
                         << a[nd - 1] << ", K) for matrices";
}

bool SolveShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known() || !(*in)[1].known()) return false;
  CheckRhs(p.op()->name, (*in)[0], (*in)[1]);
  AssignShape(out, 0, (*in)[1], p.op()->name + ": output");
  return true;
}

bool SolveBackwardShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[1].known() || !(*in)[2].known()) return false;
  CheckRhs(p.op()->name, (*in)[1], (*in)[2]);
  AssignShape(in, 0, (*in)[2], p.op()->name + ": input 'out_grad'");
  AssignShape(out, 0, (*in)[1], p.op()->name + ": output 'A_grad'");
  AssignShape(out, 1, (*in)[2], p.op()->name + ": output 'B_grad'");
  return true;
}

WEFT_REGISTER_OP("_npi_solve")
    .describe("Solves the linear system A X = B (np.linalg.solve, MXNet 1.9.1's _npi_solve) by LU with partial "
              "pivoting. A (..., M, M); B (..., M, K), or (..., M) for vectors (one axis fewer than A); the "
              "leading axes of A and B must be equal (Note [Solve right-hand sides]). A singular A is an error "
              "on the CPU. float32 and float64 only.")
    .add_input("A")
    .add_input("B")
    .set_infer_shape(SolveShape)
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu(SolveCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpSolveGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      return ViaBackwardOp(n, "_backward_npi_solve", {og[0], n->inputs[0], OutputOf(n, 0)});
    });

WEFT_REGISTER_OP("_backward_npi_solve")
    .describe("Gradient of _npi_solve from its output gradient G, A and the solution X: B_grad = A^-T G, "
              "A_grad = -B_grad X^T (per matrix of the batch).")
    .add_input("out_grad")
    .add_input("A")
    .add_input("X")
    .set_num_outputs(2)
    .set_infer_shape(SolveBackwardShape)
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu(SolveBackwardCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpSolveBackwardGpu));

}  // namespace
}  // namespace weft
