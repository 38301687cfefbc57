// _npi_eigh and _npi_eigvalsh (np.linalg.eigh / eigvalsh, MXNet 1.9.1's
// registered names): eigenvalues (ascending) and eigenvectors of symmetric
// matrices, batched over the leading axes, over LAPACK's syevd reading the
// UPLO triangle. The GPU kernels run this CPU kernel on host copies
// (np_linalg_host.cu), as _npi_eig's do.
//
// Note [np.linalg dtypes of eigh and pinv]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet 1.9.1 gives eigh, eigvalsh and pinv a float32 result for float32 input
// and a float64 one for float64 and for every integer or bool input (the
// integers are solved in double); float16 is refused. So do these ops. pinv's
// rcond array may have any dtype: it only sets the cutoff.
//
// Note [Gradients of eigh, eigvalsh and pinv]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet 1.9.1 declares these four operators with zero gradients: its
// backward gives 0 for every input (checked against its pip build in
// tests/python/mxnet_written/np_nodes_npeig/make_with_mxnet.py). A zero
// gradient is no gradient: weft.np.linalg.eigh and pinv were differentiable
// before these ops existed, and these ops keep them so. They give the true
// gradients instead, on the convention of _linalg_syevd for the symmetric
// ones (the input is read as symmetric, the gradient is symmetrized):
//   eigh:     dA = sym(V (diag(dw) + F o (V^T dV)) V^T), F_ij = 1/(w_j - w_i)
//             off the diagonal, 0 on it (distinct eigenvalues only);
//   eigvalsh: dA = V diag(dw) V^T, V from an _npi_eigh node in the backward
//             graph (eigvalsh has no eigenvector output to read);
//   pinv:     the gradient of the function computed, the cutoff included
//             (Note [Pseudo-inverse] in np_pinv.cc).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/lapack_cpu.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/linalg/np_eigh_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace linalg {

DType NpLinalgResultType(const std::string& op, const char* arg, DType in) {
  WEFT_CHECK(in != DType::kFloat16 && in != DType::kBFloat16, kDType)
      << op << ": input '" << arg << "' has dtype " << DTypeName(in)
      << "; float32, float64, an integer or bool dtype is supported (as in MXNet 1.9.1)";
  return in == DType::kFloat32 ? DType::kFloat32 : DType::kFloat64;
}

void CopyAsFloat(const TensorView& src, int64_t offset, int64_t count, DType to, void* dst) {
  WEFT_DTYPE_SWITCH(src.dtype, S, {
    const S* s = src.ptr<S>() + offset;
    if (to == DType::kFloat64) {
      double* d = static_cast<double*>(dst);
      for (int64_t i = 0; i < count; ++i) d[i] = static_cast<double>(s[i]);
    } else {
      float* d = static_cast<float*>(dst);
      for (int64_t i = 0; i < count; ++i) d[i] = static_cast<float>(s[i]);
    }
  })
}

namespace {

// Eigenvalues of matrix b into W (n), eigenvectors as V's columns (n x n,
// row-major) when V is not null. Note [Row-major LAPACK] (lapack_cpu.cc): the
// row-major buffer is column-major A^T = A (symmetric), whose triangle 'U' is
// the row-major lower one; syevd leaves eigenvector k in row k of the buffer.
template <typename T>
void EighBatch(const std::string& op, const TensorView& a, bool upper, OpReq wreq, T* W, OpReq vreq, T* V) {
  const int64_t n = a.shape[a.ndim() - 1], batch = a.Size() / (n * n);
  const bool vectors = V != nullptr && vreq != OpReq::kNull;
  ParallelFor(batch, n * n * n, [&](int64_t begin, int64_t end) {
    std::vector<T> work(static_cast<size_t>(n * n)), w(static_cast<size_t>(n));
    for (int64_t b = begin; b < end; ++b) {
      CopyAsFloat(a, b * n * n, n * n, sizeof(T) == 8 ? DType::kFloat64 : DType::kFloat32, work.data());
      // the triangle syevd reads must be finite (LAPACK aborts on some inf input)
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c)
          WEFT_CHECK((upper ? c >= r : c <= r) ? std::isfinite(static_cast<double>(work[r * n + c])) : true,
                     kInvalidArgument)
              << op << ": input 'A' (matrix " << b << " of the batch) contains inf or NaN";
      const int info = lapack::Syevd(upper ? 'L' : 'U', n, work.data(), n, w.data());
      WEFT_CHECK(info == 0, kInvalidArgument) << op << ": the eigensolver did not converge for input 'A' (matrix "
                                              << b << " of the batch; LAPACK syevd info " << info << ")";
      if (wreq != OpReq::kNull)
        for (int64_t i = 0; i < n; ++i) StoreReq(wreq, W + b * n + i, w[static_cast<size_t>(i)]);
      if (!vectors) continue;
      for (int64_t k = 0; k < n; ++k) {
        // MXNet's sign rule (as _linalg_syevd): the entry of largest magnitude (the first such) is positive
        T* e = work.data() + k * n;
        int64_t big = 0;
        for (int64_t j = 1; j < n; ++j)
          if (std::fabs(e[j]) > std::fabs(e[big])) big = j;
        const T sign = e[big] < 0 ? T(-1) : T(1);
        for (int64_t j = 0; j < n; ++j) StoreReq(vreq, V + (b * n + j) * n + k, sign * e[j]);
      }
    }
  });
}

bool EighShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  CheckSquare(p.op()->name, "A", a);
  AssignShape(out, 0, Shape(a.dims().begin(), a.dims().end() - 1), p.op()->name + ": output 'w'");
  if (out->size() > 1) AssignShape(out, 1, a, p.op()->name + ": output 'v'");
  return true;
}

bool EighType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  if ((*in)[0] == DType::kUnknown) return false;
  const DType t = NpLinalgResultType(p.op()->name, "A", (*in)[0]);
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, t, p.op()->name + ": output " + std::to_string(i));
  return true;
}

// Note [Gradients of eigh, eigvalsh and pinv]. `v` and `dv` are (batch..., n, n),
// w and dw (batch..., n); dv may be null (eigvalsh).
NodeEntry SymmetricEigenGrad(GradBuilder& b, const NodeEntry& v, const NodeEntry& w, const NodeEntry* dv,
                             const NodeEntry& dw) {
  const auto as3 = [&](const NodeEntry& x) {
    return b("Reshape", {x}, {{"shape", "(-1, 0, 0)"}, {"reverse", "True"}});
  };
  const auto as2 = [&](const NodeEntry& x) { return b("Reshape", {x}, {{"shape", "(-1, 0)"}, {"reverse", "True"}}); };
  const NodeEntry V = as3(v);
  NodeEntry X = b("_linalg_makediag", {as2(dw)});
  if (dv != nullptr) {
    const NodeEntry l = as2(w);
    const NodeEntry diff =
        b("broadcast_sub", {b("expand_dims", {l}, {{"axis", "1"}}), b("expand_dims", {l}, {{"axis", "2"}})});
    const NodeEntry eye = b("_linalg_makediag", {b("ones_like", {l})});
    const NodeEntry F = b.Sub(b("reciprocal", {b("elemwise_add", {diff, eye})}), eye);  // 0 on the diagonal
    X = b("elemwise_add", {b.Mul(F, Gemm2(b, V, as3(*dv), true, false, 1.0)), X});
  }
  NodeEntry S = Gemm2(b, V, Gemm2(b, X, V, false, true, 1.0), false, false, 1.0);
  if (dv != nullptr)
    S = b.Scalar("_mul_scalar", b("elemwise_add", {S, b("transpose", {S}, {{"axes", "(0, 2, 1)"}})}), 0.5);
  return b("_backward_reshape", {S, b.in(0)});
}

}  // namespace

void EighCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  if (in[0].Size() == 0) return;  // every output is empty too
  const bool upper = p.GetString("UPLO") == "U";
  const bool vectors = out.size() > 1;
  if (out[0].dtype == DType::kFloat64)
    EighBatch<double>(p.op()->name, in[0], upper, req[0], out[0].ptr<double>(), vectors ? req[1] : OpReq::kNull,
                      vectors ? out[1].ptr<double>() : nullptr);
  else
    EighBatch<float>(p.op()->name, in[0], upper, req[0], out[0].ptr<float>(), vectors ? req[1] : OpReq::kNull,
                     vectors ? out[1].ptr<float>() : nullptr);
}

namespace {

const char* const kUploDoc =
    "'L' or 'U': the triangle of A that is read (the other is ignored; MXNet 1.9.1's default 'L').";

// Named (reg_eigh): eigh_names below sets its output names on the declaration.
WEFT_REGISTER_OP(reg_eigh, "_npi_eigh")
    .describe("Eigenvalues and eigenvectors of a symmetric matrix (np.linalg.eigh, MXNet 1.9.1's _npi_eigh): A "
              "(..., M, M) gives w (..., M), ascending, and v (..., M, M) with the eigenvectors as columns, A v = v "
              "diag(w); only the UPLO triangle of A is read (LAPACK syevd). Each eigenvector has its entry of "
              "largest magnitude positive (MXNet's rule). Batched over the leading axes. float32 gives float32, "
              "float64 and integer input float64 (Note [np.linalg dtypes of eigh and pinv]). Differentiable for "
              "distinct eigenvalues, where MXNet 1.9.1 gives zeros (Note [Gradients of eigh, eigvalsh and pinv]).")
    .add_input("A")
    .add_enum_param("UPLO", {"L", "U"}, "L", kUploDoc)
    .set_num_outputs(2)
    .set_infer_shape(EighShape)
    .set_infer_type(EighType)
    .set_compute_cpu(EighCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpEighGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {SymmetricEigenGrad(b, b.out(1), b.out(0), &og[1], og[0])};
    });

WEFT_REGISTER_OP("_npi_eigvalsh")
    .describe("Eigenvalues of a symmetric matrix (np.linalg.eigvalsh, MXNet 1.9.1's _npi_eigvalsh): A (..., M, "
              "M) gives w (..., M), ascending, as _npi_eigh without the eigenvectors; only the UPLO triangle is "
              "read. Dtypes as _npi_eigh. Differentiable, where MXNet 1.9.1 gives zeros (Note [Gradients of eigh, "
              "eigvalsh and pinv]).")
    .add_input("A")
    .add_enum_param("UPLO", {"L", "U"}, "L", kUploDoc)
    .set_infer_shape(EighShape)
    .set_infer_type(EighType)
    .set_compute_cpu(EighCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpEighGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      const NodePtr eigh = b.Node("_npi_eigh", {b.in(0)}, b.Attrs("_npi_eigh"));
      return {SymmetricEigenGrad(b, OutputOf(eigh, 1), OutputOf(eigh, 0), nullptr, og[0])};
    });

[[maybe_unused]] bool eigh_names = [] {
  reg_eigh.list_output_names = [](const Params&) { return std::vector<std::string>{"w", "v"}; };
  return true;
}();

}  // namespace
}  // namespace linalg
}  // namespace weft
