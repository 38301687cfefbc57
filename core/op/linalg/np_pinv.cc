// _npi_pinv and _npi_pinv_scalar_rcond (np.linalg.pinv, MXNet 1.9.1's
// registered names: the cutoff rcond as an input array broadcast over the
// batch, or as a parameter), batched over the leading axes. CPU over LAPACK's
// gesdd (syevd for hermitian=True); the GPU kernels run it on host copies
// (np_linalg_host.cu). Dtypes: Note [np.linalg dtypes of eigh and pinv]
// (np_eigh.cc).
//
// Note [Pseudo-inverse]
// ~~~~~~~~~~~~~~~~~~~~~
// A (m x n) = U diag(s) V gives A+ = V^T diag(s+) U^T, s+_l = 1/s_l where
// s_l > rcond * max(s) and 0 elsewhere (NumPy's strict comparison, as MXNet).
// hermitian=True reads A as symmetric (its lower triangle, as NumPy's eigh)
// and inverts its eigenvalues instead, |w_l| against rcond * max|w|: NumPy's
// path. MXNet 1.9.1's Python front end refuses hermitian=True ("not supported
// yet"); its operator takes the parameter, so a graph may carry it.
// The rcond input of _npi_pinv has the batch's axes or fewer, each equal to
// the batch's or 1, aligned at the right (MXNet 1.9.1 refuses an rcond that
// would broadcast the output to more matrices than A has, unlike NumPy).
// The gradient (Note [Gradients of eigh, eigvalsh and pinv]) is that of the
// function the kernel computes, cutoff included (_backward_npi_pinv, per
// matrix, the SVD recomputed): with P = V^T diag(s+) U^T and G the output's
// gradient, dU = G^T V^T diag(s+), dV = diag(s+) U^T G^T and ds_l = -(s+_l)^2
// (U^T G^T V^T)_ll for the kept values (0 for the dropped ones), taken through
// the SVD's rule (np_linalg_rules.h's SvdBackward: distinct singular values).
// hermitian=True: P = Q f(w) Q^T with f(w) = 1/w kept, 0 dropped, whose
// gradient is Q (Γ o (Q^T sym(G) Q)) Q^T, Γ_ij = (f(w_i) - f(w_j)) / (w_i - w_j)
// and f'(w_i) on ties (Daleckii-Krein); symmetric, as A is read. rcond's
// gradient is zero (the result is piecewise constant in it).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/lapack_cpu.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/graph/grad_builder.h"
#include "core/op/linalg/np_eigh_cpu.h"
#include "core/op/linalg/np_linalg_rules.h"
#include "core/op/op_util.h"

namespace weft {
namespace linalg {
namespace {

struct PinvDims {
  int64_t m, n, k, batch;
};
PinvDims PinvDimsOf(const Shape& a) {
  const int nd = a.ndim();
  PinvDims d{a[nd - 2], a[nd - 1], 0, 1};
  d.k = d.m < d.n ? d.m : d.n;
  for (int i = 0; i < nd - 2; ++i) d.batch *= a[i];
  return d;
}

// The rcond entry of matrix b: rcond (shape r) broadcast to the batch shape
// `batch` (Note [Pseudo-inverse]); the values as double.
std::vector<double> RcondPerMatrix(const TensorView& rcond, const Shape& a, int64_t batch) {
  std::vector<double> r(static_cast<size_t>(rcond.Size()));
  CopyAsFloat(rcond, 0, rcond.Size(), DType::kFloat64, r.data());
  std::vector<double> per(static_cast<size_t>(batch));
  const int bnd = a.ndim() - 2, rnd = rcond.ndim();
  for (int64_t b = 0; b < batch; ++b) {
    int64_t rest = b, idx = 0, stride = 1;
    for (int i = bnd - 1, j = rnd - 1; i >= 0; --i, --j) {
      const int64_t coord = rest % a[i];
      rest /= a[i];
      if (j < 0) continue;
      if (rcond.shape[j] != 1) idx += coord * stride;
      stride *= rcond.shape[j];
    }
    per[static_cast<size_t>(b)] = r[static_cast<size_t>(idx)];
  }
  return per;
}

// P (n x m, row-major) = A+ of the row-major m x n matrix `work` (destroyed).
template <typename T>
void PinvOne(const std::string& op, int64_t b, const PinvDims& d, double rcond, bool hermitian, T* work, T* P) {
  const int64_t m = d.m, n = d.n, k = d.k;
  for (int64_t i = 0; i < m * n; ++i)
    WEFT_CHECK(std::isfinite(static_cast<double>(work[i])), kInvalidArgument)
        << op << ": input 'A' (matrix " << b << " of the batch) contains inf or NaN";
  if (hermitian) {
    // Column-major 'U' is the row-major lower triangle; eigenvector l is row l afterwards.
    std::vector<T> w(static_cast<size_t>(n)), scaled(static_cast<size_t>(n * n));
    const int info = lapack::Syevd('U', n, work, n, w.data());
    WEFT_CHECK(info == 0, kInvalidArgument) << op << ": the eigensolver did not converge for input 'A' (matrix " << b
                                            << " of the batch; LAPACK syevd info " << info << ")";
    double big = 0;
    for (const T x : w) big = std::fmax(big, std::fabs(static_cast<double>(x)));
    for (int64_t l = 0; l < n; ++l) {
      const double wl = static_cast<double>(w[static_cast<size_t>(l)]);
      const T inv = std::fabs(wl) > rcond * big ? static_cast<T>(1.0 / wl) : T(0);
      for (int64_t j = 0; j < n; ++j) scaled[static_cast<size_t>(l * n + j)] = inv * work[l * n + j];
    }
    lapack::Gemm(true, false, n, n, n, T(1), work, n, scaled.data(), n, T(0), P, n);  // sum_l u_l^T u_l / w_l
    return;
  }
  // Note [Row-major LAPACK]: as in _npi_svd (np_svd.cc), gesdd of the column-major A^T writes the
  // row-major U (m x k) and V (k x n) of A = U diag(s) V.
  std::vector<T> U(static_cast<size_t>(m * k)), s(static_cast<size_t>(k)), V(static_cast<size_t>(k * n));
  const int info = lapack::Gesdd(n, m, work, n, s.data(), V.data(), n, U.data(), k);
  WEFT_CHECK(info == 0, kInvalidArgument) << op << ": the SVD of input 'A' (matrix " << b
                                          << " of the batch) did not converge (LAPACK gesdd info " << info << ")";
  const double cutoff = rcond * static_cast<double>(s[0]);  // s descending
  for (int64_t l = 0; l < k; ++l) {
    const double sl = static_cast<double>(s[static_cast<size_t>(l)]);
    const T inv = sl > cutoff ? static_cast<T>(1.0 / sl) : T(0);
    for (int64_t j = 0; j < n; ++j) V[static_cast<size_t>(l * n + j)] *= inv;
  }
  lapack::Gemm(true, true, n, m, k, T(1), V.data(), n, U.data(), k, T(0), P, m);  // (diag(s+) V)^T U^T
}

template <typename T>
void PinvBatch(const std::string& op, const TensorView& a, const std::vector<double>& rcond, bool hermitian,
               OpReq req, T* out) {
  const PinvDims d = PinvDimsOf(a.shape);
  ParallelFor(d.batch, d.m * d.n * d.k, [&](int64_t begin, int64_t end) {
    std::vector<T> work(static_cast<size_t>(d.m * d.n)), P(static_cast<size_t>(d.m * d.n));
    for (int64_t b = begin; b < end; ++b) {
      CopyAsFloat(a, b * d.m * d.n, d.m * d.n, sizeof(T) == 8 ? DType::kFloat64 : DType::kFloat32, work.data());
      PinvOne<T>(op, b, d, rcond[static_cast<size_t>(b)], hermitian, work.data(), P.data());
      for (int64_t i = 0; i < d.m * d.n; ++i) StoreReq(req, out + b * d.m * d.n + i, P[static_cast<size_t>(i)]);
    }
  });
}

// rcond's shape against A's batch axes (Note [Pseudo-inverse]).
void CheckRcond(const std::string& op, const Shape& a, const Shape& r) {
  const int nd = a.ndim();
  bool fits = r.ndim() <= nd - 2;
  for (int j = r.ndim() - 1, i = nd - 3; fits && j >= 0; --j, --i) fits = r[j] == 1 || r[j] == a[i];
  WEFT_CHECK(fits, kShape) << op << ": input 'rcond' of shape " << r.ToString()
                           << " does not broadcast to the batch shape of input 'A' " << a.ToString()
                           << " (its axes right-aligned with A's leading ones, each equal or 1)";
}

bool PinvShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  const std::string& op = p.op()->name;
  CheckMatrices(op, "A", a);
  const int nd = a.ndim();
  WEFT_CHECK(!p.GetBool("hermitian") || a[nd - 1] == a[nd - 2], kShape)
      << op << ": input 'A' must be a (batch of) square matrices with hermitian=True, got shape " << a.ToString();
  if (in->size() > 1 && (*in)[1].known()) CheckRcond(op, a, (*in)[1]);
  Shape o = a;
  o[nd - 2] = a[nd - 1];
  o[nd - 1] = a[nd - 2];
  AssignShape(out, 0, o, op + ": output");
  return (*in).size() == 1 || (*in)[1].known();
}

bool PinvType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  if ((*in)[0] == DType::kUnknown) return false;
  AssignType(out, 0, NpLinalgResultType(p.op()->name, "A", (*in)[0]), p.op()->name + ": output");
  if (in->size() > 1) {
    if ((*in)[1] == DType::kUnknown) return false;
    NpLinalgResultType(p.op()->name, "rcond", (*in)[1]);  // refuses float16 as MXNet's cast would not
  }
  return true;
}

// dA (m x n, row-major) of matrix b from A (`a`, destroyed) and G (n x m, row-major), in double
// (Note [Pseudo-inverse]).
void PinvGradOne(const std::string& op, int64_t b, const PinvDims& d, double rcond, double* a, const double* g,
                 double* da) {
  const int64_t m = d.m, n = d.n, k = d.k;
  std::vector<double> U(static_cast<size_t>(m * k)), s(static_cast<size_t>(k)), V(static_cast<size_t>(k * n));
  const int info = lapack::Gesdd(n, m, a, n, s.data(), V.data(), n, U.data(), k);
  WEFT_CHECK(info == 0, kInvalidArgument) << op << ": the SVD of input 'A' (matrix " << b
                                          << " of the batch) did not converge (LAPACK gesdd info " << info << ")";
  std::vector<double> dU(static_cast<size_t>(m * k)), dV(static_cast<size_t>(k * n)), ds(static_cast<size_t>(k));
  for (int64_t l = 0; l < k; ++l) {
    const double sl = s[static_cast<size_t>(l)];
    const double inv = sl > rcond * s[0] ? 1.0 / sl : 0.0;
    double diag = 0;
    for (int64_t r = 0; r < m; ++r) {
      double h = 0;  // (V G)[l][r]
      for (int64_t c = 0; c < n; ++c) h += V[static_cast<size_t>(l * n + c)] * g[c * m + r];
      dU[static_cast<size_t>(r * k + l)] = inv * h;
      diag += U[static_cast<size_t>(r * k + l)] * h;
    }
    ds[static_cast<size_t>(l)] = -inv * inv * diag;
    for (int64_t c = 0; c < n; ++c) {
      double h = 0;  // (G U)[c][l]
      for (int64_t r = 0; r < m; ++r) h += g[c * m + r] * U[static_cast<size_t>(r * k + l)];
      dV[static_cast<size_t>(l * n + c)] = inv * h;
    }
  }
  std::vector<double> scratch(static_cast<size_t>(3 * k * k + m * n));
  SvdBackward<double>(dU.data(), ds.data(), dV.data(), U.data(), s.data(), V.data(), m, n, scratch.data(), da);
}

// hermitian=True (Note [Pseudo-inverse]): A (n x n) read as symmetric from its lower triangle.
void PinvHermitianGradOne(const std::string& op, int64_t b, int64_t n, double rcond, double* a, const double* g,
                          double* da) {
  std::vector<double> w(static_cast<size_t>(n)), f(static_cast<size_t>(n)), B(static_cast<size_t>(n * n)),
      T(static_cast<size_t>(n * n));
  const int info = lapack::Syevd('U', n, a, n, w.data());  // eigenvector l is row l of a
  WEFT_CHECK(info == 0, kInvalidArgument) << op << ": the eigensolver did not converge for input 'A' (matrix " << b
                                          << " of the batch; LAPACK syevd info " << info << ")";
  double big = 0;
  for (const double x : w) big = std::fmax(big, std::fabs(x));
  for (int64_t l = 0; l < n; ++l) {
    const double wl = w[static_cast<size_t>(l)];
    f[static_cast<size_t>(l)] = std::fabs(wl) > rcond * big ? 1.0 / wl : 0.0;
  }
  // T = sym(G) Q, then B = Q^T T (Q's columns are the eigenvectors)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t l = 0; l < n; ++l) {
      double acc = 0;
      for (int64_t j = 0; j < n; ++j) acc += 0.5 * (g[i * n + j] + g[j * n + i]) * a[l * n + j];
      T[static_cast<size_t>(i * n + l)] = acc;
    }
  for (int64_t l = 0; l < n; ++l)
    for (int64_t q = 0; q < n; ++q) {
      double acc = 0;
      for (int64_t i = 0; i < n; ++i) acc += a[l * n + i] * T[static_cast<size_t>(i * n + q)];
      const double wl = w[static_cast<size_t>(l)], wq = w[static_cast<size_t>(q)];
      const double fl = f[static_cast<size_t>(l)], fq = f[static_cast<size_t>(q)];
      const double gamma = wl != wq ? (fl - fq) / (wl - wq) : -fl * fl;  // f'(w) = -1/w^2 kept, 0 dropped
      B[static_cast<size_t>(l * n + q)] = gamma * acc;
    }
  // dA = Q B Q^T: T = B Q^T, then dA = Q T
  for (int64_t l = 0; l < n; ++l)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t q = 0; q < n; ++q) acc += B[static_cast<size_t>(l * n + q)] * a[q * n + j];
      T[static_cast<size_t>(l * n + j)] = acc;
    }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t l = 0; l < n; ++l) acc += a[l * n + i] * T[static_cast<size_t>(l * n + j)];
      da[i * n + j] = acc;
    }
}

// Note [Pseudo-inverse]: _backward_npi_pinv(_scalar_rcond) on out_grad, A and rcond's input.
std::vector<NodeEntry> PinvGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const bool array_rcond = n->inputs.size() > 1;
  std::vector<NodeEntry> ins = {og[0], b.in(0)};
  if (array_rcond) ins.push_back(b.in(1));
  const NodePtr g = b.NodeWithAttrs(array_rcond ? "_backward_npi_pinv" : "_backward_npi_pinv_scalar_rcond", ins);
  std::vector<NodeEntry> grads = {OutputOf(g, 0)};
  if (array_rcond) grads.push_back(b.Zeros(b.in(1)));
  return grads;
}

bool PinvBackwardShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& a = (*in)[1];
  if (!a.known()) return false;
  CheckMatrices(p.op()->name, "A", a);
  Shape t = a;
  t[a.ndim() - 2] = a[a.ndim() - 1];
  t[a.ndim() - 1] = a[a.ndim() - 2];
  AssignShape(in, 0, t, p.op()->name + ": input 'out_grad'");
  AssignShape(out, 0, a, p.op()->name + ": output");
  if (in->size() > 2) {
    if (!(*in)[2].known()) return false;
    CheckRcond(p.op()->name, a, (*in)[2]);
  }
  return true;
}

bool PinvBackwardType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  if ((*in)[1] == DType::kUnknown) return false;
  const DType t = NpLinalgResultType(p.op()->name, "A", (*in)[1]);
  AssignType(in, 0, t, p.op()->name + ": input 'out_grad'");
  AssignType(out, 0, t, p.op()->name + ": output");
  return true;
}

}  // namespace

void PinvCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;  // k = 0: the output is empty
  const PinvDims d = PinvDimsOf(in[0].shape);
  const std::vector<double> rcond = in.size() > 1
                                        ? RcondPerMatrix(in[1], in[0].shape, d.batch)
                                        : std::vector<double>(static_cast<size_t>(d.batch), p.GetFloat("rcond"));
  const bool hermitian = p.GetBool("hermitian");
  if (out[0].dtype == DType::kFloat64)
    PinvBatch<double>(p.op()->name, in[0], rcond, hermitian, req[0], out[0].ptr<double>());
  else
    PinvBatch<float>(p.op()->name, in[0], rcond, hermitian, req[0], out[0].ptr<float>());
}

void PinvBackwardCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const PinvDims d = PinvDimsOf(in[1].shape);
  const std::vector<double> rcond = in.size() > 2
                                        ? RcondPerMatrix(in[2], in[1].shape, d.batch)
                                        : std::vector<double>(static_cast<size_t>(d.batch), p.GetFloat("rcond"));
  const bool hermitian = p.GetBool("hermitian");
  const std::string& op = p.op()->name;
  if (d.k == 0) {  // no singular values: A's gradient is zero
    WEFT_DTYPE_SWITCH(out[0].dtype, T, {
      for (int64_t i = 0; i < out[0].Size(); ++i) StoreReq(req[0], out[0].ptr<T>() + i, T(0));
    })
    return;
  }
  ParallelFor(d.batch, d.m * d.n * d.k, [&](int64_t begin, int64_t end) {
    std::vector<double> a(static_cast<size_t>(d.m * d.n)), g(a.size()), da(a.size());
    for (int64_t b = begin; b < end; ++b) {
      CopyAsFloat(in[1], b * d.m * d.n, d.m * d.n, DType::kFloat64, a.data());
      CopyAsFloat(in[0], b * d.m * d.n, d.m * d.n, DType::kFloat64, g.data());
      for (const double x : a)  // LAPACK refuses (gesdd) or may abort on them, as in the forward kernel
        WEFT_CHECK(std::isfinite(x), kInvalidArgument)
            << op << ": input 'A' (matrix " << b << " of the batch) contains inf or NaN";
      if (hermitian)
        PinvHermitianGradOne(op, b, d.n, rcond[static_cast<size_t>(b)], a.data(), g.data(), da.data());
      else
        PinvGradOne(op, b, d, rcond[static_cast<size_t>(b)], a.data(), g.data(), da.data());
      if (out[0].dtype == DType::kFloat64)
        for (size_t i = 0; i < da.size(); ++i) StoreReq(req[0], out[0].ptr<double>() + b * d.m * d.n + i, da[i]);
      else
        for (size_t i = 0; i < da.size(); ++i)
          StoreReq(req[0], out[0].ptr<float>() + b * d.m * d.n + i, static_cast<float>(da[i]));
    }
  });
}

namespace {

const char* const kHermitianDoc =
    "Read A as symmetric (its lower triangle) and invert its eigenvalues, as NumPy (Note [Pseudo-inverse]); "
    "MXNet 1.9.1's front end refuses True.";

WEFT_REGISTER_OP("_npi_pinv")
    .describe("Moore-Penrose pseudo-inverse (np.linalg.pinv with an array rcond, MXNet 1.9.1's _npi_pinv): A "
              "(..., M, N) gives (..., N, M) from A's SVD, singular values <= rcond * max(s) dropped; rcond's "
              "axes broadcast to A's leading (batch) axes (Note [Pseudo-inverse]). float32 gives float32, float64 "
              "and integer input float64 (Note [np.linalg dtypes of eigh and pinv]). Differentiable (distinct "
              "singular values), the cutoff included, where MXNet 1.9.1 gives zeros; rcond's gradient is zero.")
    .add_input("A")
    .add_input("rcond")
    .add_param("hermitian", ParamType::kBool, "False", kHermitianDoc)
    .set_infer_shape(PinvShape)
    .set_infer_type(PinvType)
    .set_compute_cpu(PinvCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpPinvGpu))
    .set_gradient(PinvGrad);

WEFT_REGISTER_OP("_npi_pinv_scalar_rcond")
    .describe("Moore-Penrose pseudo-inverse with a number rcond (np.linalg.pinv(a, rcond=float), MXNet 1.9.1's "
              "_npi_pinv_scalar_rcond): as _npi_pinv, singular values <= rcond * max(s) dropped (Note "
              "[Pseudo-inverse]). Differentiable (distinct singular values), where MXNet 1.9.1 gives zeros.")
    .add_input("A")
    .add_param("rcond", ParamType::kFloat, "1e-15", "Cutoff for small singular values, relative to the largest.")
    .add_param("hermitian", ParamType::kBool, "False", kHermitianDoc)
    .set_infer_shape(PinvShape)
    .set_infer_type(PinvType)
    .set_compute_cpu(PinvCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpPinvGpu))
    .set_gradient(PinvGrad);

WEFT_REGISTER_OP("_backward_npi_pinv")
    .describe("Gradient of _npi_pinv: dA from out_grad (..., N, M), A (..., M, N) and rcond, the SVD recomputed "
              "per matrix, the cutoff included (Note [Pseudo-inverse]). Needs distinct singular values.")
    .add_input("out_grad")
    .add_input("A")
    .add_input("rcond")
    .add_param("hermitian", ParamType::kBool, "False", kHermitianDoc)
    .set_infer_shape(PinvBackwardShape)
    .set_infer_type(PinvBackwardType)
    .set_compute_cpu(PinvBackwardCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpPinvBackwardGpu));

WEFT_REGISTER_OP("_backward_npi_pinv_scalar_rcond")
    .describe("Gradient of _npi_pinv_scalar_rcond: dA from out_grad (..., N, M) and A (..., M, N), as "
              "_backward_npi_pinv with a number rcond (Note [Pseudo-inverse]).")
    .add_input("out_grad")
    .add_input("A")
    .add_param("rcond", ParamType::kFloat, "1e-15", "Cutoff for small singular values, relative to the largest.")
    .add_param("hermitian", ParamType::kBool, "False", kHermitianDoc)
    .set_infer_shape(PinvBackwardShape)
    .set_infer_type(PinvBackwardType)
    .set_compute_cpu(PinvBackwardCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpPinvBackwardGpu));

}  // namespace
}  // namespace linalg
}  // namespace weft
