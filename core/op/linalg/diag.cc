// The diagonal and triangle ops of the linalg family: _linalg_sumlogdiag,
// _linalg_extractdiag, _linalg_makediag, _linalg_extracttrian,
// _linalg_maketrian (aliases linalg_*), batched over the leading axes. The
// element maps are in diag_rules.h (Note [Packed triangles]); GPU kernels in
// linalg_diag.cu.
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/diag_rules.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

int64_t AbsOffset(const Params& p) {
  const int64_t k = p.GetInt("offset");
  return k < 0 ? -k : k;
}

// For each output index i: out[i] (req)= v(i), threaded.
template <typename T, typename F>
void ElementLoop(const TensorView& out, OpReq req, F v) {
  if (req == OpReq::kNull) return;
  T* o = out.ptr<T>();
  ParallelFor(out.Size(), 4, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) StoreReq(req, o + i, v(i));
  });
}

// ---- extractdiag / makediag ----

bool ExtractShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, bool trian) {
  const std::string& op = p.op()->name;
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  linalg::CheckSquare(op, "A", a);
  const int64_t n = a[a.ndim() - 1], m = n - AbsOffset(p);
  WEFT_CHECK(m > 0, kInvalidArgument) << op << ": offset " << p.GetInt("offset")
                                      << " leaves no diagonal of a " << n << " x " << n << " matrix";
  Shape o(a.dims().begin(), a.dims().end() - 1);
  o[o.ndim() - 1] = trian ? m * (m + 1) / 2 : m;
  AssignShape(out, 0, o, op + ": output");
  return true;
}

bool MakeShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, bool trian) {
  const std::string& op = p.op()->name;
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  WEFT_CHECK(a.ndim() >= 1, kShape) << op << ": input 'A' must have at least 1 dimension, got shape "
                                    << a.ToString();
  const int64_t len = a[a.ndim() - 1];
  int64_t m = len;
  if (trian) {
    m = static_cast<int64_t>(std::floor(0.5 + (std::sqrt(8.0 * static_cast<double>(len) + 1.0) - 1.0) * 0.5));
    WEFT_CHECK(m * (m + 1) / 2 == len, kShape)
        << op << ": input 'A' " << a.ToString() << " must have a triangular number m (m + 1) / 2 of entries on its "
        << "last axis, got " << len;
  }
  Shape o = a;
  o[o.ndim() - 1] = m + AbsOffset(p);
  o.push_back(m + AbsOffset(p));
  AssignShape(out, 0, o, op + ": output");
  return true;
}

void ExtractDiagCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t k = p.GetInt("offset"), n = in[0].shape[in[0].ndim() - 1];
  WEFT_LINALG_REAL(out[0].dtype, T, {
    const T* a = in[0].ptr<T>();
    ElementLoop<T>(out[0], req[0], [&](int64_t i) { return a[linalg::DiagElement(k, n, i)]; });
  })
}

void MakeDiagCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t k = p.GetInt("offset"), n = out[0].shape[out[0].ndim() - 1];
  WEFT_LINALG_REAL(out[0].dtype, T, {
    const T* a = in[0].ptr<T>();
    ElementLoop<T>(out[0], req[0], [&](int64_t i) {
      const int64_t s = linalg::MakeDiagSource(k, n, i);
      return s < 0 ? T(0) : a[s];
    });
  })
}

void ExtractTrianCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t k = p.GetInt("offset"), n = in[0].shape[in[0].ndim() - 1];
  const bool lower = p.GetBool("lower");
  if (req[0] == OpReq::kNull) return;
  WEFT_LINALG_REAL(out[0].dtype, T, {
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    ParallelFor(in[0].Size(), 4, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t t = linalg::TrianElement(lower, k, n, i);
        if (t >= 0) StoreReq(req[0], o + t, a[i]);
      }
    });
  })
}

void MakeTrianCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t k = p.GetInt("offset"), n = out[0].shape[out[0].ndim() - 1];
  const bool lower = p.GetBool("lower");
  WEFT_LINALG_REAL(out[0].dtype, T, {
    const T* a = in[0].ptr<T>();
    ElementLoop<T>(out[0], req[0], [&](int64_t i) {
      const int64_t t = linalg::TrianElement(lower, k, n, i);
      return t < 0 ? T(0) : a[t];
    });
  })
}

const char* kOffsetDoc =
    "Offset of the diagonal versus the main diagonal. 0 corresponds to the main diagonal, a negative/positive "
    "value to diagonals below/above the main diagonal.";
const char* kLowerDoc =
    "Refer to the lower triangular matrix if lower=true, refer to the upper otherwise. Only relevant when "
    "offset=0.";

OpDef& DiagOp(const char* name, const char* alias, bool trian, bool extract, FCompute cpu, FCompute gpu,
              const char* inverse, const std::string& doc) {
  WEFT_REGISTER_OP(op, name).add_alias(alias);
  op.describe(doc).add_input("A").add_param("offset", ParamType::kInt, "0", kOffsetDoc);
  if (trian) op.add_param("lower", ParamType::kBool, "True", kLowerDoc);
  const std::string inv = inverse;
  op.set_infer_shape([trian, extract](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return extract ? ExtractShape(p, in, out, trian) : MakeShape(p, in, out, trian);
    })
      .set_infer_type(linalg::FloatTypeInfer)
      .set_compute_cpu(std::move(cpu))
      .set_compute_gpu(std::move(gpu))
      // Each is the other's transpose map: the gradient is the inverse op with the same attributes.
      .set_gradient([inv](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {b(inv, {og[0]}, b.Attrs(inv))};
      });
  return op;
}

[[maybe_unused]] OpDef& reg_extractdiag = DiagOp(
    "_linalg_extractdiag", "linalg_extractdiag", false, true, ExtractDiagCompute,
    WEFT_GPU(cuda::LinalgExtractDiagGpu), "_linalg_makediag",
    "Extracts the diagonal entries of a square matrix (the diagonal `offset` above, or below when negative, the "
    "main one): A (..., n, n) gives (..., n - |offset|). float32 and float64 only.");
[[maybe_unused]] OpDef& reg_makediag = DiagOp(
    "_linalg_makediag", "linalg_makediag", false, false, MakeDiagCompute, WEFT_GPU(cuda::LinalgMakeDiagGpu),
    "_linalg_extractdiag",
    "Constructs a square matrix with the input as diagonal (diagonal `offset`), zero elsewhere: A (..., k) "
    "gives (..., k + |offset|, k + |offset|). float32 and float64 only.");
[[maybe_unused]] OpDef& reg_extracttrian = DiagOp(
    "_linalg_extracttrian", "linalg_extracttrian", true, true, ExtractTrianCompute,
    WEFT_GPU(cuda::LinalgExtractTrianGpu), "_linalg_maketrian",
    "Extracts a triangular sub-matrix from a square matrix: the entries on and below diagonal `offset` "
    "(offset < 0, or 0 with lower=True) or on and above it (offset > 0, or 0 with lower=False), packed into a "
    "vector of m (m + 1) / 2 entries, m = n - |offset| (lower: row by row; upper: column by column). "
    "float32 and float64 only.");
[[maybe_unused]] OpDef& reg_maketrian = DiagOp(
    "_linalg_maketrian", "linalg_maketrian", true, false, MakeTrianCompute, WEFT_GPU(cuda::LinalgMakeTrianGpu),
    "_linalg_extracttrian",
    "Constructs a square matrix with the input representing a triangular sub-matrix (the inverse of "
    "extracttrian with the same offset and lower), zero elsewhere: A (..., m (m + 1) / 2) gives "
    "(..., m + |offset|, m + |offset|). float32 and float64 only.");

// ---- sumlogdiag ----

WEFT_REGISTER_OP(reg_sumlogdiag, "_linalg_sumlogdiag").add_alias("linalg_sumlogdiag")
    .describe("Computes the sum of the logarithms of the diagonal elements of a square matrix. Inputs of rank "
              "n > 2 are batches over the leading n-2 axes (output shape: those axes; (1,) for one matrix). "
              "float32 and float64 only.")
    .add_input("A")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& a = (*in)[0];
      if (!a.known()) return false;
      linalg::CheckSquare(p.op()->name, "A", a);
      AssignShape(out, 0, a.ndim() == 2 ? Shape{1} : Shape(a.dims().begin(), a.dims().end() - 2),
                  p.op()->name + ": output");
      return true;
    })
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int64_t n = in[0].shape[in[0].ndim() - 1];
      WEFT_LINALG_REAL(out[0].dtype, T, {
        const T* a = in[0].ptr<T>();
        ElementLoop<T>(out[0], req[0], [&](int64_t b) { return linalg::SumLogDiag(a + b * n * n, n); });
      })
    })
    .set_compute_gpu(WEFT_GPU(cuda::LinalgSumLogDiagGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      // dA = diag(G / diag(A)), per matrix.
      GradBuilder b(n);
      const NodeEntry d = b("Reshape", {b("_linalg_extractdiag", {b.in(0)})}, {{"shape", "(-1, 0)"}, {"reverse", "True"}});
      const NodeEntry g = b("Reshape", {og[0]}, {{"shape", "(-1, 1)"}});
      return {b("_backward_reshape", {b("_linalg_makediag", {b("broadcast_div", {g, d})}), b.in(0)})};
    });

}  // namespace
}  // namespace weft
