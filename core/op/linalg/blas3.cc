// The BLAS-3 ops of the linalg family: _linalg_gemm, _linalg_gemm2,
// _linalg_trmm, _linalg_trsm, _linalg_syrk (aliases linalg_*), batched over
// the leading axes (Note [Linalg batches] in linalg_rules.h). CPU kernels over
// CBLAS (lapack_cpu.cc), GPU kernels in linalg_blas3.cu. Gradients are built
// from the same ops (MXNet's formulas for gemm/trmm/trsm/syrk backward).
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

using linalg::B2S;
using linalg::Gemm2;
using linalg::Layout;
using linalg::MatBatch;

int RowAxis(const Params& p, int ndim) {
  const int64_t a = p.GetInt("axis");
  const int64_t ax = a < 0 ? a + ndim : a;
  WEFT_CHECK(ax >= 0 && ax < ndim - 1, kInvalidArgument)
      << p.op()->name << ": axis " << a << " is not a row axis of inputs of rank " << ndim
      << " (expected -" << ndim << " <= axis < " << ndim - 1 << ", and not the last axis)";
  return static_cast<int>(ax);
}

// ---- gemm, gemm2 ----

bool GemmShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  const bool mac = in->size() == 3;
  const Shape& a = (*in)[0];
  const Shape& b = (*in)[1];
  if (mac && !(*in)[2].known() && (*out)[0].known()) AssignShape(in, 2, (*out)[0], op + ": input 'C'");
  if (!a.known() || !b.known()) return false;
  linalg::CheckMatrices(op, "A", a);
  linalg::CheckMatrices(op, "B", b);
  WEFT_CHECK(a.ndim() == b.ndim(), kShape) << op << ": inputs 'A' " << a.ToString() << " and 'B' " << b.ToString()
                                           << " must have the same rank";
  const int nd = a.ndim(), axis = RowAxis(p, nd);
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  Shape o = a;
  for (int i = 0; i < nd - 1; ++i)
    WEFT_CHECK(i == axis || a[i] == b[i], kShape)
        << op << ": inputs 'A' " << a.ToString() << " and 'B' " << b.ToString()
        << " must have the same shape except on the row axis " << axis << " and the last axis";
  const int64_t ka = ta ? a[axis] : a[nd - 1], kb = tb ? b[nd - 1] : b[axis];
  WEFT_CHECK(ka == kb, kShape) << op << ": incompatible matrix dimensions for multiplication: op(A) of "
                               << a.ToString() << " has " << ka << " columns, op(B) of " << b.ToString() << " has "
                               << kb << " rows (transpose_a=" << ta << ", transpose_b=" << tb << ")";
  o[axis] = ta ? a[nd - 1] : a[axis];
  o[nd - 1] = tb ? b[axis] : b[nd - 1];
  AssignShape(out, 0, o, op + ": output");
  if (mac) AssignShape(in, 2, o, op + ": input 'C'");
  return true;
}

template <typename T>
void GemmT(const Params& p, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const int nd = out.ndim(), axis = RowAxis(p, nd);
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  const bool mac = in.size() == 3;
  const T alpha = static_cast<T>(p.GetFloat("alpha"));
  const T beta = mac ? static_cast<T>(p.GetFloat("beta")) : T(0);
  const MatBatch la = Layout(in[0].shape, axis), lb = Layout(in[1].shape, axis), lo = Layout(out.shape, axis);
  const int64_t k = ta ? la.rows : la.cols;
  const T* A = in[0].ptr<T>();
  const T* B = in[1].ptr<T>();
  const T* C = mac ? in[2].ptr<T>() : nullptr;
  linalg::WithReq<T>(req, out, [&](T* O) {
    ParallelFor(lo.batch, lo.rows * lo.cols * (k + 1), [&](int64_t begin, int64_t end) {
      for (int64_t bi = begin; bi < end; ++bi) {
        T* o = O + lo.Offset(bi);
        if (mac)
          for (int64_t r = 0; r < lo.rows; ++r)
            std::memcpy(o + r * lo.ld, C + lo.Offset(bi) + r * lo.ld, sizeof(T) * static_cast<size_t>(lo.cols));
        lapack::Gemm(ta, tb, lo.rows, lo.cols, k, alpha, A + la.Offset(bi), la.ld, B + lb.Offset(bi), lb.ld, beta,
                     o, lo.ld);
      }
    });
  });
}

void GemmCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (out[0].dtype == DType::kFloat64) GemmT<double>(p, in, req[0], out[0]);
  else GemmT<float>(p, in, req[0], out[0]);
}

std::vector<NodeEntry> GemmGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const Params& p = n->params;
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  const double alpha = p.GetFloat("alpha");
  const std::string axis = std::to_string(p.GetInt("axis"));
  const NodeEntry& g = og[0];
  std::vector<NodeEntry> r;
  r.push_back(ta ? Gemm2(b, b.in(1), g, tb, true, alpha, axis) : Gemm2(b, g, b.in(1), false, !tb, alpha, axis));
  r.push_back(tb ? Gemm2(b, g, b.in(0), true, ta, alpha, axis) : Gemm2(b, b.in(0), g, !ta, false, alpha, axis));
  if (n->inputs.size() == 3) r.push_back(b.Scalar("_mul_scalar", g, p.GetFloat("beta")));
  return r;
}

OpDef& GemmCommon(OpDef& op) {
  op.add_param("transpose_a", ParamType::kBool, "False", "Multiply with the transpose of the first input (A).")
      .add_param("transpose_b", ParamType::kBool, "False", "Multiply with the transpose of the second input (B).")
      .add_param("alpha", ParamType::kFloat, "1.0", "Scalar factor multiplied with A*B.");
  return op;
}

WEFT_REGISTER_OP(linalg_gemm_decl, "_linalg_gemm");
[[maybe_unused]] OpDef& reg_gemm =
    GemmCommon(linalg_gemm_decl.add_alias("linalg_gemm")
                   .describe("Performs general matrix multiplication and accumulation: out = alpha * op(A) * op(B) "
                             "+ beta * C, op() the identity or the transpose (transpose_a, transpose_b).\n\n"
                             "Inputs of rank n > 2 are batches over the leading n-2 axes. The row indices are "
                             "on `axis` (default -2) and the column indices on the last axis; another axis is "
                             "the same as swapaxes(axis, -2), gemm, swapaxes back. float32 and float64 only.")
                   .add_input("A").add_input("B").add_input("C"))
        .add_param("beta", ParamType::kFloat, "1.0", "Scalar factor multiplied with C.")
        .add_param("axis", ParamType::kInt, "-2", "Axis corresponding to the matrix rows.")
        .set_infer_shape(GemmShape)
        .set_infer_type(linalg::FloatTypeInfer)
        .set_compute_cpu(GemmCompute)
        .set_compute_gpu(WEFT_GPU(cuda::LinalgGemmGpu))
        .set_gradient(GemmGrad);

WEFT_REGISTER_OP(linalg_gemm2_decl, "_linalg_gemm2");
[[maybe_unused]] OpDef& reg_gemm2 =
    GemmCommon(linalg_gemm2_decl.add_alias("linalg_gemm2")
                   .describe("Performs general matrix multiplication: out = alpha * op(A) * op(B), op() the "
                             "identity or the transpose (transpose_a, transpose_b).\n\n"
                             "Inputs of rank n > 2 are batches over the leading n-2 axes; `axis` (default -2) "
                             "holds the row indices, as for gemm. float32 and float64 only.")
                   .add_input("A").add_input("B"))
        .add_param("axis", ParamType::kInt, "-2", "Axis corresponding to the matrix row indices.")
        .set_infer_shape(GemmShape)
        .set_infer_type(linalg::FloatTypeInfer)
        .set_compute_cpu(GemmCompute)
        .set_compute_gpu(WEFT_GPU(cuda::LinalgGemmGpu))
        .set_gradient(GemmGrad);

// ---- trmm, trsm ----

bool TriangShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string& op = p.op()->name;
  const bool right = p.GetBool("rightside");
  const Shape& a = (*in)[0];
  const Shape& b = (*in)[1];
  if (!a.known() && b.known() && b.ndim() >= 2) {  // A is square and fits B: it follows from B
    Shape sa = b;
    const int nd = b.ndim();
    sa[nd - 2] = sa[nd - 1] = right ? b[nd - 1] : b[nd - 2];
    AssignShape(in, 0, sa, op + ": input 'A'");
  }
  if (a.known() && b.known()) {
    linalg::CheckSquare(op, "A", a);
    linalg::CheckMatrices(op, "B", b);
    linalg::CheckSameBatch(op, "A", a, "B", b);
    const int nd = b.ndim();
    const int64_t want = right ? b[nd - 1] : b[nd - 2];
    WEFT_CHECK(a[nd - 1] == want, kShape)
        << op << ": the triangular matrix A " << a.ToString() << " does not fit B " << b.ToString() << " ("
        << (right ? "rightside: A's size must be B's column count" : "A's size must be B's row count") << ")";
    AssignShape(out, 0, b, op + ": output");
    return true;
  }
  const Shape& o = (*out)[0];
  if (!o.known() || o.ndim() < 2) return false;
  AssignShape(in, 1, o, op + ": input 'B'");
  Shape sa = o;
  const int nd = o.ndim();
  sa[nd - 2] = sa[nd - 1] = right ? o[nd - 1] : o[nd - 2];
  AssignShape(in, 0, sa, op + ": input 'A'");
  return true;
}

template <typename T, bool kSolve>
void TriangT(const Params& p, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const bool right = p.GetBool("rightside"), lower = p.GetBool("lower"), trans = p.GetBool("transpose");
  const T alpha = static_cast<T>(p.GetFloat("alpha"));
  const MatBatch la = Layout(in[0].shape), lb = Layout(in[1].shape);
  const T* A = in[0].ptr<T>();
  const T* B = in[1].ptr<T>();
  linalg::WithReq<T>(req, out, [&](T* O) {
    if (out.Size() > 0) std::memcpy(O, B, sizeof(T) * static_cast<size_t>(out.Size()));  // an empty B may be null
    ParallelFor(lb.batch, lb.rows * lb.cols * la.rows, [&](int64_t begin, int64_t end) {
      for (int64_t bi = begin; bi < end; ++bi) {
        if (kSolve)
          lapack::Trsm(right, lower, trans, lb.rows, lb.cols, alpha, A + la.Offset(bi), la.ld, O + lb.Offset(bi),
                       lb.ld);
        else
          lapack::Trmm(right, lower, trans, lb.rows, lb.cols, alpha, A + la.Offset(bi), la.ld, O + lb.Offset(bi),
                       lb.ld);
      }
    });
  });
}

template <bool kSolve>
void TriangCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (out[0].dtype == DType::kFloat64) TriangT<double, kSolve>(p, in, req[0], out[0]);
  else TriangT<float, kSolve>(p, in, req[0], out[0]);
}

std::map<std::string, std::string> TriangAttrs(bool trans, bool right, bool lower, double alpha) {
  return {{"transpose", B2S(trans)}, {"rightside", B2S(right)}, {"lower", B2S(lower)}, {"alpha", ScalarAttr(alpha)}};
}

// out = alpha M B (left) or alpha B M (right), M = op(tri(A)).
std::vector<NodeEntry> TrmmGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const Params& p = n->params;
  const bool t = p.GetBool("transpose"), right = p.GetBool("rightside"), lower = p.GetBool("lower");
  const double alpha = p.GetFloat("alpha");
  const NodeEntry& g = og[0];
  const NodeEntry& B = b.in(1);
  const NodeEntry dB = b("_linalg_trmm", {b.in(0), g}, TriangAttrs(!t, right, lower, alpha));
  NodeEntry dT;
  if (!right) dT = t ? Gemm2(b, B, g, false, true, alpha) : Gemm2(b, g, B, false, true, alpha);
  else dT = t ? Gemm2(b, g, B, true, false, alpha) : Gemm2(b, B, g, true, false, alpha);
  return {linalg::Triangle(b, dT, lower), dB};
}

// X = alpha M^-1 B (left) or alpha B M^-1 (right).
std::vector<NodeEntry> TrsmGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const Params& p = n->params;
  const bool t = p.GetBool("transpose"), right = p.GetBool("rightside"), lower = p.GetBool("lower");
  const double alpha = p.GetFloat("alpha");
  const NodeEntry& g = og[0];
  const NodeEntry X = b.out(0);
  const NodeEntry dB = b("_linalg_trsm", {b.in(0), g}, TriangAttrs(!t, right, lower, alpha));
  const NodeEntry Y = b("_linalg_trsm", {b.in(0), g}, TriangAttrs(!t, right, lower, 1.0));  // M^-T G or G M^-T
  NodeEntry dT;
  if (!right) dT = t ? Gemm2(b, X, Y, false, true, -1.0) : Gemm2(b, Y, X, false, true, -1.0);
  else dT = t ? Gemm2(b, Y, X, true, false, -1.0) : Gemm2(b, X, Y, true, false, -1.0);
  return {linalg::Triangle(b, dT, lower), dB};
}

OpDef& TriangOp(const char* name, const char* alias, bool solve, const std::string& doc) {
  WEFT_REGISTER_OP(op, name).add_alias(alias);
  op.describe(doc)
      .add_input("A")
      .add_input("B")
      .add_param("transpose", ParamType::kBool, "False", "Use the transpose of the triangular matrix.")
      .add_param("rightside", ParamType::kBool, "False",
                 solve ? "Solve with the triangular matrix on the right: X * op(A) = alpha * B."
                       : "Multiply the triangular matrix from the right: alpha * B * op(A).")
      .add_param("lower", ParamType::kBool, "True",
                 "True if the triangular matrix is lower triangular, False if it is upper triangular.")
      .add_param("alpha", ParamType::kFloat, "1.0", "Scalar factor applied to the result.")
      .set_infer_shape(TriangShape)
      .set_infer_type(linalg::FloatTypeInfer)
      .set_compute_cpu(solve ? FCompute(TriangCompute<true>) : FCompute(TriangCompute<false>))
      .set_compute_gpu(solve ? WEFT_GPU(cuda::LinalgTrsmGpu) : WEFT_GPU(cuda::LinalgTrmmGpu))
      .set_gradient(solve ? FGradient(TrsmGrad) : FGradient(TrmmGrad));
  return op;
}

[[maybe_unused]] OpDef& reg_trmm = TriangOp(
    "_linalg_trmm", "linalg_trmm", false,
    "Performs multiplication with a lower (or upper, lower=False) triangular matrix: out = alpha * op(A) * B, or "
    "alpha * B * op(A) with rightside=True; op() the identity or the transpose. Only A's triangle is read. "
    "Inputs of rank n > 2 are batches over the leading n-2 axes. float32 and float64 only.");
[[maybe_unused]] OpDef& reg_trsm = TriangOp(
    "_linalg_trsm", "linalg_trsm", true,
    "Solves a matrix equation with a lower (or upper, lower=False) triangular matrix: out = alpha * op(A)^-1 * "
    "B, or alpha * B * op(A)^-1 with rightside=True; op() the identity or the transpose. Only A's triangle is "
    "read. Inputs of rank n > 2 are batches over the leading n-2 axes. float32 and float64 only.");

// ---- syrk ----

template <typename T>
void SyrkT(const Params& p, const TensorView& a, OpReq req, const TensorView& out) {
  const bool trans = p.GetBool("transpose");
  const T alpha = static_cast<T>(p.GetFloat("alpha"));
  const MatBatch la = Layout(a.shape), lo = Layout(out.shape);
  const int64_t n = lo.rows, k = trans ? la.rows : la.cols;
  const T* A = a.ptr<T>();
  linalg::WithReq<T>(req, out, [&](T* O) {
    ParallelFor(lo.batch, n * n * k, [&](int64_t begin, int64_t end) {
      for (int64_t bi = begin; bi < end; ++bi) {
        T* o = O + lo.Offset(bi);
        lapack::Syrk(trans, n, k, alpha, A + la.Offset(bi), la.ld, o, n);
        for (int64_t r = 0; r < n; ++r)  // syrk wrote the lower triangle
          for (int64_t c = r + 1; c < n; ++c) o[r * n + c] = o[c * n + r];
      }
    });
  });
}

WEFT_REGISTER_OP(reg_syrk, "_linalg_syrk").add_alias("linalg_syrk")
    .describe("Multiplication of a matrix with its transpose: out = alpha * A * A^T, or alpha * A^T * A with "
              "transpose=True. Inputs of rank n > 2 are batches over the leading n-2 axes. float32 and "
              "float64 only.")
    .add_input("A")
    .add_param("transpose", ParamType::kBool, "False", "Use the transpose of the input matrix.")
    .add_param("alpha", ParamType::kFloat, "1.0", "Scalar factor applied to the result.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& a = (*in)[0];
      if (!a.known()) return false;
      linalg::CheckMatrices(p.op()->name, "A", a);
      Shape o = a;
      const int nd = a.ndim();
      o[nd - 2] = o[nd - 1] = p.GetBool("transpose") ? a[nd - 1] : a[nd - 2];
      AssignShape(out, 0, o, p.op()->name + ": output");
      return true;
    })
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      if (out[0].dtype == DType::kFloat64) SyrkT<double>(p, in[0], req[0], out[0]);
      else SyrkT<float>(p, in[0], req[0], out[0]);
    })
    .set_compute_gpu(WEFT_GPU(cuda::LinalgSyrkGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      // out = alpha A A^T: dA = alpha (G + G^T) A; transposed: alpha A (G + G^T).
      GradBuilder b(n);
      const bool t = n->params.GetBool("transpose");
      const double alpha = n->params.GetFloat("alpha");
      const NodeEntry& g = og[0];
      const NodeEntry& A = b.in(0);
      if (!t) return {b("elemwise_add", {Gemm2(b, g, A, false, false, alpha), Gemm2(b, g, A, true, false, alpha)})};
      return {b("elemwise_add", {Gemm2(b, A, g, false, false, alpha), Gemm2(b, A, g, false, true, alpha)})};
    });

}  // namespace
}  // namespace weft
