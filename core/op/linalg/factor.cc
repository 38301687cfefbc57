// The factorizations of the linalg family: _linalg_potrf, _linalg_potri,
// _linalg_gelqf, _linalg_syevd, _linalg_inverse, _linalg_det,
// _linalg_slogdet (aliases linalg_*), batched over the leading axes. CPU
// kernels over LAPACK (lapack_cpu.cc: potrf, potri, getrf, getri,
// geqrf+orgqr, syevd), GPU kernels in linalg_factor.cu. Gradients are built
// from the family's own ops (gemm2, trsm, extract/make diag and trian).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/lapack_cpu.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/linalg/lu_rules.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using linalg::B2S;
using linalg::Gemm2;
using linalg::TransposeSquare;

// Square input -> output of the same shape.
bool SquareSameShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known() && (*out)[0].known()) AssignShape(in, 0, (*out)[0], p.op()->name + ": input 'A'");
  if (!(*in)[0].known()) return false;
  linalg::CheckSquare(p.op()->name, "A", (*in)[0]);
  AssignShape(out, 0, (*in)[0], p.op()->name + ": output");
  return true;
}

// (batch..., n, n) -> one value per matrix: (batch...), or (1,) for one matrix.
Shape PerMatrixShape(const Shape& a) {
  if (a.ndim() == 2) return Shape{1};
  return Shape(a.dims().begin(), a.dims().end() - 2);
}

template <typename T, typename F>
void ForEachMatrix(int64_t batch, int64_t n, F f) {
  ParallelFor(batch, n * n * n, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) f(b);
  });
}

// ---- potrf, potri ----

void PotrfCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  // An empty batch has nothing to factor, a null buffer (memcpy from NULL is
  // undefined even for 0 bytes: UBSan under the ASan Python run) and, for
  // 0x0 matrices, no n * n to divide by.
  if (in[0].Size() == 0) return;
  const bool lower = p.GetBool("lower");
  const int64_t n = in[0].shape[in[0].ndim() - 1], batch = in[0].Size() / (n * n);
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* O) {
      std::memcpy(O, in[0].data, sizeof(T) * static_cast<size_t>(in[0].Size()));
      ForEachMatrix<T>(batch, n, [&](int64_t b) {
        T* o = O + b * n * n;
        // Note [Row-major LAPACK]: the row-major lower factor is the column-major upper one.
        const int info = lapack::Potrf(lower ? 'U' : 'L', n, o, n);
        WEFT_CHECK(info == 0, kInvalidArgument) << "_linalg_potrf: input 'A' (matrix " << b
                                                << " of the batch) is not symmetric positive definite "
                                                << "(LAPACK potrf info " << info << ")";
        for (int64_t r = 0; r < n; ++r)
          for (int64_t c = 0; c < n; ++c)
            if (lower ? c > r : c < r) o[r * n + c] = T(0);
      });
    });
  })
}

void PotriCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  // An empty batch has nothing to factor, a null buffer (memcpy from NULL is
  // undefined even for 0 bytes: UBSan under the ASan Python run) and, for
  // 0x0 matrices, no n * n to divide by.
  if (in[0].Size() == 0) return;
  const bool lower = p.GetBool("lower");
  const int64_t n = in[0].shape[in[0].ndim() - 1], batch = in[0].Size() / (n * n);
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* O) {
      std::memcpy(O, in[0].data, sizeof(T) * static_cast<size_t>(in[0].Size()));
      ForEachMatrix<T>(batch, n, [&](int64_t b) {
        T* o = O + b * n * n;
        const int info = lapack::Potri(lower ? 'U' : 'L', n, o, n);
        WEFT_CHECK(info == 0, kInvalidArgument) << "_linalg_potri: input 'A' (matrix " << b
                                                << " of the batch) has a zero on its diagonal (LAPACK potri info "
                                                << info << ")";
        for (int64_t r = 0; r < n; ++r)  // the result is in A's triangle: make it symmetric
          for (int64_t c = 0; c < r; ++c) {
            if (lower) o[c * n + r] = o[r * n + c];
            else o[r * n + c] = o[c * n + r];
          }
      });
    });
  })
}

// Phi(M): M's lower triangle with the diagonal halved.
NodeEntry Phi(GradBuilder& b, const NodeEntry& m) {
  const NodeEntry d = b("_linalg_makediag", {b("_linalg_extractdiag", {m})});
  return b.Sub(linalg::Triangle(b, m, true), b.Scalar("_mul_scalar", d, 0.5));
}

std::map<std::string, std::string> TrsmAttrs(bool trans, bool right, bool lower) {
  return {{"transpose", B2S(trans)}, {"rightside", B2S(right)}, {"lower", B2S(lower)}, {"alpha", "1"}};
}

// L = potrf(A), A = L L^T: dA = sym(L^-T Phi(L^T dL) L^-1) (Murray 2016, as MXNet);
// upper (A = U^T U): dA = sym(U^-1 Phi(U dU^T) U^-T). sym(X) = (X + X^T) / 2.
std::vector<NodeEntry> PotrfGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const bool lower = n->params.GetBool("lower");
  const NodeEntry L = b.out(0);
  const NodeEntry P = Phi(b, lower ? Gemm2(b, L, og[0], true, false, 1.0) : Gemm2(b, L, og[0], false, true, 1.0));
  const NodeEntry X1 = b("_linalg_trsm", {L, P}, TrsmAttrs(lower, false, lower));
  const NodeEntry X2 = b("_linalg_trsm", {L, X1}, TrsmAttrs(!lower, true, lower));
  return {b.Scalar("_mul_scalar", b("elemwise_add", {X2, TransposeSquare(b, X2)}), 0.5)};
}

// out = (L L^T)^-1: dL = -tril(out (G + G^T) out L); upper: dU = -triu(U out (G + G^T) out).
std::vector<NodeEntry> PotriGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const bool lower = n->params.GetBool("lower");
  const NodeEntry& g = og[0];
  const NodeEntry inv = b.out(0);
  const NodeEntry gs = b("elemwise_add", {g, TransposeSquare(b, g)});
  const NodeEntry w = Gemm2(b, Gemm2(b, inv, gs, false, false, 1.0), inv, false, false, 1.0);
  const NodeEntry t = linalg::Triangle(b, b.in(0), lower);  // potri reads only this triangle of its input
  const NodeEntry d = lower ? Gemm2(b, w, t, false, false, -1.0) : Gemm2(b, t, w, false, false, -1.0);
  return {linalg::Triangle(b, d, lower)};
}

OpDef& CholeskyOp(const char* name, const char* alias, FCompute cpu, FCompute gpu, FGradient grad,
                  const std::string& doc) {
  WEFT_REGISTER_OP(op, name).add_alias(alias);
  op.describe(doc)
      .add_input("A")
      .add_param("lower", ParamType::kBool, "True",
                 "True if the triangular matrix is lower triangular, False if it is upper triangular.")
      .set_infer_shape(SquareSameShape)
      .set_infer_type(linalg::FloatTypeInfer)
      .set_compute_cpu(std::move(cpu))
      .set_compute_gpu(std::move(gpu))
      .set_gradient(std::move(grad));
  return op;
}

[[maybe_unused]] OpDef& reg_potrf = CholeskyOp(
    "_linalg_potrf", "linalg_potrf", PotrfCompute, WEFT_GPU(cuda::LinalgPotrfGpu), PotrfGrad,
    "Performs Cholesky factorization of a symmetric positive-definite matrix: A = L * L^T with L lower "
    "triangular (lower=True; the other triangle of the output is zero), or A = U^T * U with U upper "
    "triangular (lower=False). Only A's lower (upper) triangle is read. Inputs of rank n > 2 are batches "
    "over the leading n-2 axes. float32 and float64 only.");
[[maybe_unused]] OpDef& reg_potri = CholeskyOp(
    "_linalg_potri", "linalg_potri", PotriCompute, WEFT_GPU(cuda::LinalgPotriGpu), PotriGrad,
    "Performs matrix inversion from a Cholesky factorization: for A = L * L^T (input L, lower triangular), "
    "out = A^-1; with lower=False the input is U and A = U^T * U. Only the input's triangle is read. Inputs "
    "of rank n > 2 are batches over the leading n-2 axes. float32 and float64 only.");

// ---- inverse, det, slogdet ----

template <typename T>
void LuOf(const T* a, int64_t n, T* lu, int* ipiv, int* info) {
  std::memcpy(lu, a, sizeof(T) * static_cast<size_t>(n * n));
  *info = lapack::Getrf(n, lu, n, ipiv);
}

void InverseCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t n = in[0].shape[in[0].ndim() - 1], batch = in[0].Size() / (n * n);
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* O) {
      ForEachMatrix<T>(batch, n, [&](int64_t b) {
        std::vector<int> ipiv(static_cast<size_t>(n));
        int info = 0;
        LuOf(in[0].ptr<T>() + b * n * n, n, O + b * n * n, ipiv.data(), &info);
        WEFT_CHECK(info == 0, kInvalidArgument) << "_linalg_inverse: input 'A' (matrix " << b
                                                << " of the batch) is singular (LAPACK getrf info " << info << ")";
        lapack::Getri(n, O + b * n * n, n, ipiv.data());
      });
    });
  })
}

// sign and log|det| of each matrix (sign 0 and log|det| -inf when singular),
// and the factorization as the hidden outputs LU (dtype of A) and pivot
// (int32) in lu_rules.h's layout. LAPACK is column-major: it factors the
// transposed copy (A seen column-major), and LU is transposed back.
template <typename T>
void SignLogDet(const TensorView& a, std::vector<T>* sign, std::vector<T>* logabs, OpReq lu_req,
                const TensorView& lu_out, OpReq piv_req, const TensorView& piv_out) {
  const int64_t n = a.shape[a.ndim() - 1], batch = a.Size() / (n * n);
  sign->assign(static_cast<size_t>(batch), T(0));
  logabs->assign(static_cast<size_t>(batch), T(0));
  ForEachMatrix<T>(batch, n, [&](int64_t b) {
    const T* src = a.ptr<T>() + b * n * n;
    std::vector<T> lu(static_cast<size_t>(n * n));
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c) lu[static_cast<size_t>(c * n + r)] = src[r * n + c];
    std::vector<int> ipiv(static_cast<size_t>(n));
    const int info = lapack::Getrf(n, lu.data(), n, ipiv.data());
    T s = 1, l = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T u = lu[static_cast<size_t>(i * n + i)];
      if (ipiv[static_cast<size_t>(i)] != i + 1) s = -s;
      if (u < 0) s = -s;
      l += std::log(std::fabs(u));
    }
    if (info > 0) s = 0;
    (*sign)[static_cast<size_t>(b)] = s;
    (*logabs)[static_cast<size_t>(b)] = l;
    if (lu_req != OpReq::kNull) {
      T* o = lu_out.ptr<T>() + b * n * n;
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c) StoreReq(lu_req, o + r * n + c, lu[static_cast<size_t>(c * n + r)]);
    }
    if (piv_req != OpReq::kNull) {
      int32_t* o = piv_out.ptr<int32_t>() + b * n;
      for (int64_t i = 0; i < n; ++i) StoreReq(piv_req, o + i, static_cast<int32_t>(ipiv[static_cast<size_t>(i)]));
    }
  });
}

template <typename T>
void Store(OpReq req, const TensorView& out, const std::vector<T>& v) {
  T* o = out.ptr<T>();
  for (size_t i = 0; i < v.size(); ++i) StoreReq(req, o + i, v[i]);
}

// Outputs: det, LU, pivot (the last two hidden, for the backward).
void DetCompute(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  WEFT_LINALG_REAL(out[0].dtype, T, {
    std::vector<T> s, l;
    SignLogDet<T>(in[0], &s, &l, req[1], out[1], req[2], out[2]);
    for (size_t i = 0; i < s.size(); ++i) s[i] = s[i] == 0 ? T(0) : s[i] * std::exp(l[i]);
    Store(req[0], out[0], s);
  })
}

// Outputs: sign, logabsdet, LU, pivot (the last two hidden).
void SlogdetCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_LINALG_REAL(out[0].dtype, T, {
    std::vector<T> s, l;
    SignLogDet<T>(in[0], &s, &l, req[2], out[2], req[3], out[3]);
    Store(req[0], out[0], s);
    Store(req[1], out[1], l);
  })
}

// dA = scale_b * A^-T per matrix b from the saved LU and pivot: scale is
// out_grad * det (_backward_linalg_det) or the logabsdet gradient
// (_backward_linalg_slogdet). Inputs: (out_grad, det | sign_grad, logabsdet_grad), LU, pivot.
void BackwardDetCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool slog = p.op()->name == "_backward_linalg_slogdet";
  const TensorView& lu = in[2];
  const TensorView& piv = in[3];
  const int64_t n = lu.shape[lu.ndim() - 1], batch = lu.Size() / (n * n);
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* O) {
      ForEachMatrix<T>(batch, n, [&](int64_t b) {
        const T* f = lu.ptr<T>() + b * n * n;
        const int32_t* ip = piv.ptr<int32_t>() + b * n;
        const int64_t bad = linalg::FirstInvalidPivot(ip, n);
        WEFT_CHECK(bad < 0, kInvalidArgument)
            << p.op()->name << ": input 'pivot' (matrix " << b << " of the batch) has entry " << bad << " = "
            << (bad < 0 ? 0 : ip[bad]) << "; expected a 1-based row index in " << bad + 1 << ".." << n
            << " (the pivot _linalg_det/_linalg_slogdet wrote)";
        for (int64_t i = 0; i < n; ++i)
          WEFT_CHECK(f[i * n + i] != T(0), kInvalidArgument)
              << p.op()->name << ": input 'A' (matrix " << b << " of the batch) is singular; the gradient needs "
              << "A invertible";
        const double scale = slog ? static_cast<double>(in[1].ptr<T>()[b])
                                  : static_cast<double>(in[0].ptr<T>()[b]) * static_cast<double>(in[1].ptr<T>()[b]);
        std::vector<double> x(static_cast<size_t>(n * n));
        linalg::ScaledInverseTransposeFromLu(f, ip, n, scale, x.data(), O + b * n * n);
      });
    });
  })
}

// Outputs: the per-matrix values (det; or sign, logabsdet), then LU (A's shape)
// and pivot (A's shape less the last axis).
bool DetShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known()) return false;
  const Shape& a = (*in)[0];
  linalg::CheckSquare(p.op()->name, "A", a);
  const size_t values = out->size() - 2;
  for (size_t i = 0; i < values; ++i) AssignShape(out, i, PerMatrixShape(a), p.op()->name + ": output");
  AssignShape(out, values, a, p.op()->name + ": output 'LU'");
  AssignShape(out, values + 1, Shape(a.dims().begin(), a.dims().end() - 1), p.op()->name + ": output 'pivot'");
  return true;
}

bool DetType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const size_t values = out->size() - 2;
  std::vector<DType> vis(out->begin(), out->begin() + static_cast<std::ptrdiff_t>(values + 1));  // values, LU
  if (!linalg::FloatTypeInfer(p, in, &vis)) return false;
  for (size_t i = 0; i <= values; ++i) AssignType(out, i, vis[i], p.op()->name + ": output");
  AssignType(out, values + 1, DType::kInt32, p.op()->name + ": output 'pivot'");
  return true;
}

// _backward_linalg_det / _backward_linalg_slogdet: (g0, g1, LU, pivot) -> dA, A's shape.
bool BackwardDetShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[2].known()) return false;
  const Shape& a = (*in)[2];
  linalg::CheckSquare(p.op()->name, "LU", a);
  AssignShape(in, 0, PerMatrixShape(a), p.op()->name + ": input 0");
  AssignShape(in, 1, PerMatrixShape(a), p.op()->name + ": input 1");
  AssignShape(in, 3, Shape(a.dims().begin(), a.dims().end() - 1), p.op()->name + ": input 'pivot'");
  AssignShape(out, 0, a, p.op()->name + ": output");
  return true;
}

bool BackwardDetType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const DType piv = (*in)[3];
  WEFT_CHECK(piv == DType::kUnknown || piv == DType::kInt32, kDType)
      << p.op()->name << ": input 'pivot' has dtype " << DTypeName(piv) << "; expected int32";
  std::vector<DType> floats(in->begin(), in->begin() + 3);
  if (!linalg::FloatTypeInfer(p, &floats, out)) return false;
  for (size_t i = 0; i < 3; ++i) AssignType(in, i, floats[i], p.op()->name + ": input");
  AssignType(in, 3, DType::kInt32, p.op()->name + ": input 'pivot'");
  return true;
}

OpDef& BackwardDetOp(const char* name, std::vector<const char*> inputs, const char* doc,
                     FCompute gpu) {
  WEFT_REGISTER_OP(op, name).describe(doc);
  for (const char* i : inputs) op.add_input(i);
  op.set_infer_shape(BackwardDetShape)
      .set_infer_type(BackwardDetType)
      .set_compute_cpu(BackwardDetCompute)
      .set_compute_gpu(gpu);
  return op;
}

WEFT_REGISTER_OP(reg_inverse, "_linalg_inverse").add_alias("linalg_inverse").add_alias("_npi_inv")
    .describe("Computes the inverse of a square matrix (LU factorization with partial pivoting). Inputs of rank "
              "n > 2 are batches over the leading n-2 axes. float32 and float64 only.")
    .add_input("A")
    .set_infer_shape(SquareSameShape)
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu(InverseCompute)
    .set_compute_gpu(WEFT_GPU(cuda::LinalgInverseGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // dA = -out^T G out^T
      const NodeEntry inv = b.out(0);
      return {Gemm2(b, inv, Gemm2(b, og[0], inv, false, true, 1.0), true, false, -1.0)};
    });

// MXNet 1.9.1's outputs: det (or sign, logabsdet) visible, then the hidden LU
// and pivot the backward reads instead of factorizing A again. MXNet registers
// inverse, det and slogdet under np.linalg's names too (_npi_inv, _npi_det,
// _npi_slogdet), so graphs saved in NumPy mode load.
WEFT_REGISTER_OP(reg_det, "_linalg_det").add_alias("linalg_det").add_alias("_npi_det")
    .describe("Computes the determinant of a square matrix. Inputs of rank n > 2 are batches over the leading "
              "n-2 axes (output shape: those axes; (1,) for one matrix). The LU factorization (P A = L U) and "
              "its pivots are hidden outputs; the gradient (Jacobi's formula, G * det(A) * A^-T) solves with "
              "them and needs A invertible. float32 and float64 only.")
    .add_input("A")
    .set_num_outputs(3)
    .set_infer_shape(DetShape)
    .set_infer_type(DetType)
    .set_compute_cpu(DetCompute)
    .set_compute_gpu(WEFT_GPU(cuda::LinalgDetGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      return ViaBackwardOp(n, "_backward_linalg_det", {og[0], OutputOf(n, 0), OutputOf(n, 1), OutputOf(n, 2)});
    });

WEFT_REGISTER_OP(reg_slogdet, "_linalg_slogdet").add_alias("linalg_slogdet").add_alias("_npi_slogdet")
    .describe("Computes the sign and the natural logarithm of the absolute value of the determinant of a "
              "square matrix: outputs sign and logabsdet, det = sign * exp(logabsdet) (sign 0 and logabsdet "
              "-inf for a singular matrix). Inputs of rank n > 2 are batches over the leading n-2 axes. The "
              "LU factorization and its pivots are hidden outputs; the gradient of logabsdet is A^-T, solved "
              "with them; sign has none. float32 and float64 only.")
    .add_input("A")
    .set_num_outputs(4)
    .set_infer_shape(DetShape)
    .set_infer_type(DetType)
    .set_compute_cpu(SlogdetCompute)
    .set_compute_gpu(WEFT_GPU(cuda::LinalgSlogdetGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      return ViaBackwardOp(n, "_backward_linalg_slogdet", {og[0], og[1], OutputOf(n, 2), OutputOf(n, 3)});
    });

[[maybe_unused]] OpDef& reg_det_bwd = BackwardDetOp(
    "_backward_linalg_det", {"out_grad", "det", "LU", "pivot"},
    "Gradient of _linalg_det from its outputs: out_grad * det * A^-T per matrix, A^-T solved from the saved "
    "LU factorization and pivots. A must be invertible.",
    WEFT_GPU(cuda::LinalgBackwardDetGpu));
[[maybe_unused]] OpDef& reg_slogdet_bwd = BackwardDetOp(
    "_backward_linalg_slogdet", {"sign_grad", "logabsdet_grad", "LU", "pivot"},
    "Gradient of _linalg_slogdet: logabsdet_grad * A^-T per matrix (sign has no gradient), A^-T solved from "
    "the saved LU factorization and pivots. A must be invertible.",
    WEFT_GPU(cuda::LinalgBackwardSlogdetGpu));

// ---- gelqf, syevd ----

void GelqfCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const Shape& s = in[0].shape;
  const int64_t m = s[s.ndim() - 2], n = s[s.ndim() - 1];
  if (in[0].Size() == 0) return;  // no matrix, or 0 x n ones (m <= n): Q and L are empty; m * n may be 0
  const int64_t batch = in[0].Size() / (m * n);
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* Q) {
      linalg::WithReq<T>(req[1], out[1], [&](T* L) {
        std::memcpy(Q, in[0].data, sizeof(T) * static_cast<size_t>(in[0].Size()));
        ForEachMatrix<T>(batch, m, [&](int64_t b) {
          // Note [Row-major LAPACK]: row-major A (m x n) is column-major A^T (n x m); its QR, A^T = Q' R,
          // is A = R^T Q'^T = L Q (the reflectors of LAPACK's gelqf on A). Row-major Q is column-major Q',
          // and column-major R written with leading dimension m is row-major L.
          const int info = lapack::GeqrfOrgqr(n, m, Q + b * m * n, n, L + b * m * m, m);
          WEFT_CHECK(info == 0, kInternal) << "_linalg_gelqf: LAPACK geqrf/orgqr info " << info;
        });
      });
    });
  })
}

void SyevdCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (in[0].Size() == 0) return;  // both outputs are empty too: as in PotrfCompute
  const int64_t n = in[0].shape[in[0].ndim() - 1], batch = in[0].Size() / (n * n);
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* U) {
      linalg::WithReq<T>(req[1], out[1], [&](T* W) {
        std::memcpy(U, in[0].data, sizeof(T) * static_cast<size_t>(in[0].Size()));
        ForEachMatrix<T>(batch, n, [&](int64_t b) {
          T* u = U + b * n * n;
          // Column-major 'U' is the row-major lower triangle; eigenvectors come as column-major columns,
          // i.e. the rows of row-major U (A = U^T diag(L) U).
          const int info = lapack::Syevd('U', n, u, n, W + b * n);
          WEFT_CHECK(info == 0, kInvalidArgument) << "_linalg_syevd: the eigensolver did not converge for matrix "
                                                  << b << " of the batch (LAPACK syevd info " << info << ")";
          for (int64_t r = 0; r < n; ++r) {  // MXNet's sign rule: each row's largest |entry| (first) is positive
            T* row = u + r * n;
            int64_t k = 0;
            for (int64_t j = 1; j < n; ++j)
              if (std::fabs(row[j]) > std::fabs(row[k])) k = j;
            if (row[k] < 0)
              for (int64_t j = 0; j < n; ++j) row[j] = -row[j];
          }
        });
      });
    });
  })
}

// (Q, L) = gelqf(A), A = L Q: dA = L^-T (dQ + copyLTU(M) Q), M = L^T dL - dQ Q^T, where copyLTU(M)
// is the symmetric matrix with M's lower triangle (MXNet's rule, arXiv:1710.08717).
std::vector<NodeEntry> GelqfGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const NodeEntry Q = b.out(0), L = b.out(1);
  const NodeEntry& dQ = og[0];
  const NodeEntry M = b.Sub(Gemm2(b, L, og[1], true, false, 1.0), Gemm2(b, dQ, Q, false, true, 1.0));
  const NodeEntry low = linalg::Triangle(b, M, true);
  const NodeEntry sym = b.Sub(b("elemwise_add", {low, TransposeSquare(b, low)}),
                              b("_linalg_makediag", {b("_linalg_extractdiag", {M})}));
  const NodeEntry rhs = b("elemwise_add", {dQ, Gemm2(b, sym, Q, false, false, 1.0)});
  return {b("_linalg_trsm", {L, rhs}, TrsmAttrs(true, false, true))};
}

// (U, l) = syevd(A), A = U^T diag(l) U: dA = sym(U^T (diag(dl) + F o (U dU^T)) U), F_ij = 1 / (l_j - l_i)
// off the diagonal, 0 on it; sym(X) = (X + X^T) / 2 (A is read as symmetric). Distinct eigenvalues only.
std::vector<NodeEntry> SyevdGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const auto as3 = [&](const NodeEntry& x) { return b("Reshape", {x}, {{"shape", "(-1, 0, 0)"}, {"reverse", "True"}}); };
  const auto as2 = [&](const NodeEntry& x) { return b("Reshape", {x}, {{"shape", "(-1, 0)"}, {"reverse", "True"}}); };
  const NodeEntry U = as3(b.out(0)), dU = as3(og[0]);
  const NodeEntry l = as2(b.out(1));
  const NodeEntry diff = b("broadcast_sub", {b("expand_dims", {l}, {{"axis", "1"}}), b("expand_dims", {l}, {{"axis", "2"}})});
  const NodeEntry eye = b("_linalg_makediag", {b("ones_like", {l})});
  const NodeEntry F = b.Sub(b("reciprocal", {b("elemwise_add", {diff, eye})}), eye);  // 0 on the diagonal
  const NodeEntry X = b("elemwise_add", {b.Mul(F, Gemm2(b, U, dU, false, true, 1.0)), b("_linalg_makediag", {as2(og[1])})});
  const NodeEntry Y = Gemm2(b, U, Gemm2(b, X, U, false, false, 1.0), true, false, 1.0);
  const NodeEntry S = b.Scalar("_mul_scalar", b("elemwise_add", {Y, b("transpose", {Y}, {{"axes", "(0, 2, 1)"}})}), 0.5);
  return {b("_backward_reshape", {S, b.in(0)})};
}

WEFT_REGISTER_OP(reg_gelqf, "_linalg_gelqf").add_alias("linalg_gelqf")
    .describe("LQ factorization of a general matrix: A (x, y) with x <= y and full rank x gives Q (x, y), "
              "row-orthonormal (Q * Q^T = I), and L (x, x), lower triangular, with A = L * Q. Inputs of rank "
              "n > 2 are batches over the leading n-2 axes. float32 and float64 only.")
    .add_input("A")
    .set_num_outputs(2)
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() && (*out)[0].known()) AssignShape(in, 0, (*out)[0], p.op()->name + ": input 'A' (as Q)");
      const Shape& a = (*in)[0];
      if (!a.known()) return false;
      linalg::CheckMatrices(p.op()->name, "A", a);
      const int nd = a.ndim();
      WEFT_CHECK(a[nd - 2] <= a[nd - 1], kShape)
          << p.op()->name << ": input 'A' " << a.ToString()
          << " must have at most as many rows as columns (last dimension >= second to last)";
      AssignShape(out, 0, a, p.op()->name + ": output 'Q'");
      Shape l = a;
      l[nd - 1] = a[nd - 2];
      AssignShape(out, 1, l, p.op()->name + ": output 'L'");
      return true;
    })
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu(GelqfCompute)
    .set_compute_gpu(WEFT_GPU(cuda::LinalgGelqfGpu))
    .set_gradient(GelqfGrad);

WEFT_REGISTER_OP(reg_syevd, "_linalg_syevd")  // MXNet 1.9.1 gives syevd no linalg_ alias
    .describe("Eigendecomposition of a symmetric matrix: A = U^T * diag(L) * U, U orthonormal with the "
              "eigenvectors as rows, L the eigenvalues in ascending order. Only A's lower triangle is read. "
              "Each row of U has the sign that makes its entry of largest magnitude positive. Inputs of rank "
              "n > 2 are batches over the leading n-2 axes. float32 and float64 only.")
    .add_input("A")
    .set_num_outputs(2)
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() && (*out)[0].known()) AssignShape(in, 0, (*out)[0], p.op()->name + ": input 'A' (as U)");
      const Shape& a = (*in)[0];
      if (!a.known()) return false;
      linalg::CheckSquare(p.op()->name, "A", a);
      AssignShape(out, 0, a, p.op()->name + ": output 'U'");
      AssignShape(out, 1, Shape(a.dims().begin(), a.dims().end() - 1), p.op()->name + ": output 'L'");
      return true;
    })
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu(SyevdCompute)
    .set_compute_gpu(WEFT_GPU(cuda::LinalgSyevdGpu))
    .set_gradient(SyevdGrad);

// MXNet's output names (a Symbol's list_outputs: gelqf_Q, gelqf_L, ...).
OpDef& WithOutputNames(OpDef& op, std::vector<std::string> names) {
  op.list_output_names = [names](const Params&) { return names; };
  return op;
}
[[maybe_unused]] OpDef& names_gelqf = WithOutputNames(reg_gelqf, {"Q", "L"});
[[maybe_unused]] OpDef& names_syevd = WithOutputNames(reg_syevd, {"U", "L"});
[[maybe_unused]] OpDef& names_det = WithOutputNames(reg_det, {"output", "LU", "pivot"});
[[maybe_unused]] bool hidden_det = [] {
  reg_det.num_visible_outputs = 1;
  reg_slogdet.num_visible_outputs = 2;
  return true;
}();
[[maybe_unused]] OpDef& names_slogdet = WithOutputNames(reg_slogdet, {"sign", "logdet", "LU", "pivot"});

}  // namespace
}  // namespace weft
