// _npi_svd (np.linalg.svd, MXNet 1.9.1's registered name) and its backward
// op, batched over the leading axes. CPU over LAPACK's gesdd, GPU in
// np_linalg.cu (one-sided Jacobi); both apply Note [SVD signs]
// (np_linalg_rules.h).
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/linalg/lapack_cpu.h"
#include "core/op/linalg/linalg_rules.h"
#include "core/op/linalg/linalg_gpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/linalg/np_linalg_rules.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

struct SvdDims {
  int64_t m, n, k, batch;
};
SvdDims DimsOf(const Shape& a) {
  const int nd = a.ndim();
  SvdDims d{a[nd - 2], a[nd - 1], 0, 1};
  d.k = d.m < d.n ? d.m : d.n;
  for (int i = 0; i < nd - 2; ++i) d.batch *= a[i];
  return d;
}

// Writes v into out honouring req.
template <typename T>
void StoreAll(OpReq req, const TensorView& out, const std::vector<T>& v) {
  T* o = out.ptr<T>();
  for (size_t i = 0; i < v.size(); ++i) StoreReq(req, o + i, v[i]);
}

// Note [Row-major LAPACK] (lapack_cpu.cc): row-major A (m x n) is column-major
// A^T (n x m); gesdd of A^T = U' S V'^T gives A = V' S U'^T. The column-major
// n x k U' is, byte for byte, the row-major k x n V we return, and the
// column-major k x m V'^T the row-major m x k U: gesdd writes our outputs.
void SvdCompute(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  const SvdDims d = DimsOf(in[0].shape);
  if (d.k == 0 || d.batch == 0) return;  // every output is empty
  WEFT_LINALG_REAL(in[0].dtype, T, {
    std::vector<T> U(static_cast<size_t>(d.batch * d.m * d.k)), S(static_cast<size_t>(d.batch * d.k)),
        V(static_cast<size_t>(d.batch * d.k * d.n));
    const T* A = in[0].ptr<T>();
    ParallelFor(d.batch, d.m * d.n * d.k, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(d.m * d.n));
      for (int64_t b = begin; b < end; ++b) {
        std::memcpy(work.data(), A + b * d.m * d.n, sizeof(T) * work.size());
        T* u = U.data() + b * d.m * d.k;
        T* v = V.data() + b * d.k * d.n;
        const int info = lapack::Gesdd(d.n, d.m, work.data(), d.n, S.data() + b * d.k, v, d.n, u, d.k);
        WEFT_CHECK(info == 0, kInvalidArgument)
            << "_npi_svd: the SVD of input 'A' (matrix " << b << " of the batch) did not converge (LAPACK gesdd info "
            << info << ")";
        linalg::SvdSignRule(u, v, d.m, d.n, d.k);
      }
    });
    StoreAll(req[0], out[0], U);
    StoreAll(req[1], out[1], S);
    StoreAll(req[2], out[2], V);
  })
}

// Inputs: dUT, dL, dV, UT, L, V (np_linalg_rules.h's SvdBackward); output dA.
void SvdBackwardCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const SvdDims d = DimsOf(out[0].shape);
  if (d.batch == 0 || d.m * d.n == 0) return;
  WEFT_LINALG_REAL(out[0].dtype, T, {
    linalg::WithReq<T>(req[0], out[0], [&](T* O) {
      if (d.k == 0) return;
      ParallelFor(d.batch, d.m * d.n * d.k, [&](int64_t begin, int64_t end) {
        std::vector<double> scratch(static_cast<size_t>(3 * d.k * d.k + d.m * d.n));
        for (int64_t b = begin; b < end; ++b)
          linalg::SvdBackward(in[0].ptr<T>() + b * d.m * d.k, in[1].ptr<T>() + b * d.k, in[2].ptr<T>() + b * d.k * d.n,
                              in[3].ptr<T>() + b * d.m * d.k, in[4].ptr<T>() + b * d.k, in[5].ptr<T>() + b * d.k * d.n,
                              d.m, d.n, scratch.data(), O + b * d.m * d.n);
      });
    });
  })
}

Shape WithLast2(const Shape& a, int64_t r, int64_t c) {
  Shape s = a;
  s[s.ndim() - 2] = r;
  s[s.ndim() - 1] = c;
  return s;
}

// UT (..., M, K), L (..., K), V (..., K, N) of A (..., M, N).
std::vector<Shape> SvdOutShapes(const Shape& a) {
  const SvdDims d = DimsOf(a);
  Shape l(a.dims().begin(), a.dims().end() - 1);
  l[l.ndim() - 1] = d.k;
  return {WithLast2(a, d.m, d.k), l, WithLast2(a, d.k, d.n)};
}

bool SvdShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  linalg::CheckMatrices(p.op()->name, "A", a);
  const std::vector<Shape> o = SvdOutShapes(a);
  AssignShape(out, 0, o[0], p.op()->name + ": output 'UT'");
  AssignShape(out, 1, o[1], p.op()->name + ": output 'L'");
  AssignShape(out, 2, o[2], p.op()->name + ": output 'V'");
  return true;
}

bool SvdBackwardShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& ut = (*in)[3];
  const Shape& v = (*in)[5];
  if (!ut.known() || !v.known()) return false;
  linalg::CheckMatrices(p.op()->name, "UT", ut);
  linalg::CheckMatrices(p.op()->name, "V", v);
  const int nd = ut.ndim();
  const Shape a = WithLast2(ut, ut[nd - 2], v[nd - 1]);
  const std::vector<Shape> o = SvdOutShapes(a);
  for (size_t k = 0; k < 3; ++k) {
    AssignShape(in, k, o[k], p.op()->name + ": input " + std::to_string(k));
    AssignShape(in, k + 3, o[k], p.op()->name + ": input " + std::to_string(k + 3));
  }
  AssignShape(out, 0, a, p.op()->name + ": output");
  return true;
}

// Added with OpRegistry::Add, not WEFT_REGISTER_OP: the output names below need the reference.
WEFT_REGISTER_OP(reg_svd, "_npi_svd")
    .describe("Singular value decomposition (np.linalg.svd, MXNet 1.9.1's _npi_svd): A (..., M, N) = UT "
              "diag(L) V with UT (..., M, K) column-orthonormal, L (..., K) descending and V (..., K, N) "
              "row-orthonormal, K = min(M, N) (MXNet documents M <= N; both are accepted). Batched over the "
              "leading axes. Each row of V has its entry of largest magnitude positive (Note [SVD signs]). "
              "float32 and float64 only. The gradient needs distinct non-zero singular values.")
    .add_input("A")
    .set_num_outputs(3)
    .set_infer_shape(SvdShape)
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu(SvdCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpSvdGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      return ViaBackwardOp(n, "_backward_npi_svd",
                           {og[0], og[1], og[2], OutputOf(n, 0), OutputOf(n, 1), OutputOf(n, 2)});
    });

WEFT_REGISTER_OP("_backward_npi_svd")
    .describe("Gradient of _npi_svd: dA from the output gradients (dUT, dL, dV) and the outputs (UT, L, V), "
              "by the real thin-SVD rule (np_linalg_rules.h). Needs distinct non-zero singular values.")
    .add_input("UT_grad")
    .add_input("L_grad")
    .add_input("V_grad")
    .add_input("UT")
    .add_input("L")
    .add_input("V")
    .set_infer_shape(SvdBackwardShape)
    .set_infer_type(linalg::FloatTypeInfer)
    .set_compute_cpu(SvdBackwardCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpSvdBackwardGpu));

[[maybe_unused]] bool svd_names = [] {
  reg_svd.list_output_names = [](const Params&) { return std::vector<std::string>{"UT", "L", "V"}; };
  return true;
}();

}  // namespace
}  // namespace weft
