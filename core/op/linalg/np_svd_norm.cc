// _weft_np_svd_norm: the matrix norms np.linalg.norm computes from singular
// values (ord=2, -2, 'nuc' over two axes), and its backward op. Weft's own
// name: MXNet 1.9.1 computes them inside _npi_norm (flag 0 for ord=+-2, flag 2
// for 'nuc'), which Weft's symbol reader translates to this op
// (core/graph/np_nodes_nplinalg.cc, Note [NumPy-mode random and norm nodes]).
// GPU kernels: np_svd_norm.cu, these on host copies.
//
// Note [Singular-value norms]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// For each matrix M (the input's two `axis` axes; every other axis a batch
// axis, kept in order) with SVD M = U diag(s) V^T, s descending:
//   ord=2: s[0];  ord=-2: s[k-1];  ord='nuc': sum(s).
// Each is sum_l w_l s_l for a fixed weight vector w (e_0, e_{k-1}, ones), so
// its gradient is U diag(w) V^T (unique where the chosen singular values are
// distinct and, for -2 and 'nuc', nonzero) -- MXNet 1.9.1's gradients
// (checked there). The matrix is gathered into a row-major double buffer by
// strides, so any two axes in any order work without a transpose op; gesdd
// runs in double for float32 too, the result cast back.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/linalg/lapack_cpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/linalg/np_svd_norm_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace linalg {
namespace {

constexpr const char* kSvdNormOp = "_weft_np_svd_norm";

// The two matrix axes (normalized) and the batch axes of a shape.
struct SvdNormGeom {
  int row = 0, col = 0;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  std::vector<int> rest;  // the batch axes, in order
};

SvdNormGeom GeomOf(const std::string& op, const Params& p, const Shape& a) {
  const std::vector<int64_t>& axis = p.GetTuple("axis");
  const int nd = a.ndim();
  WEFT_CHECK(axis.size() == 2, kInvalidArgument)
      << op << ": parameter 'axis' must name two axes (a matrix norm), got " << axis.size();
  SvdNormGeom g;
  int ax[2];
  for (int i = 0; i < 2; ++i) {
    const int64_t v = axis[static_cast<size_t>(i)];
    WEFT_CHECK(v >= -nd && v < nd, kInvalidArgument)
        << op << ": parameter 'axis' = " << v << " is out of range for input 'x' of " << nd << " dimensions";
    ax[i] = static_cast<int>(v < 0 ? v + nd : v);
  }
  WEFT_CHECK(ax[0] != ax[1], kInvalidArgument) << op << ": parameter 'axis' names axis " << ax[0] << " twice";
  g.row = ax[0];
  g.col = ax[1];
  g.m = a[g.row];
  g.n = a[g.col];
  g.k = g.m < g.n ? g.m : g.n;
  WEFT_CHECK(g.k > 0, kShape) << op << ": input 'x' has an empty matrix (" << g.m << " x " << g.n
                              << "): its singular-value norm is undefined, as NumPy's";
  for (int d = 0; d < nd; ++d)
    if (d != g.row && d != g.col) {
      g.rest.push_back(d);
      g.batch *= a[d];
    }
  return g;
}

// The flat offset of the first element of batch matrix b (row-major over the
// batch axes) and the strides of the row and column axes.
int64_t BatchOffset(const Shape& a, const SvdNormGeom& g, int64_t b) {
  std::vector<int64_t> stride(static_cast<size_t>(a.ndim()), 1);
  for (int d = a.ndim() - 2; d >= 0; --d)
    stride[static_cast<size_t>(d)] = stride[static_cast<size_t>(d + 1)] * a[d + 1];
  int64_t off = 0;
  for (int i = static_cast<int>(g.rest.size()) - 1; i >= 0; --i) {
    const int d = g.rest[static_cast<size_t>(i)];
    off += (b % a[d]) * stride[static_cast<size_t>(d)];
    b /= a[d];
  }
  return off;
}

int64_t StrideOf(const Shape& a, int axis) {
  int64_t s = 1;
  for (int d = a.ndim() - 1; d > axis; --d) s *= a[d];
  return s;
}

// The weights w of Note [Singular-value norms].
std::vector<double> Weights(const std::string& ord, int64_t k) {
  std::vector<double> w(static_cast<size_t>(k), ord == "nuc" ? 1.0 : 0.0);
  if (ord == "2") w[0] = 1.0;
  if (ord == "-2") w[static_cast<size_t>(k - 1)] = 1.0;
  return w;
}

// SVD of batch matrix b of x into U (m x k), s (k), V (k x n), row-major.
template <typename T>
void SvdOf(const std::string& op, const TensorView& x, const SvdNormGeom& g, int64_t b, std::vector<double>* U,
           std::vector<double>* s, std::vector<double>* V) {
  const T* src = x.ptr<T>() + BatchOffset(x.shape, g, b);
  const int64_t rs = StrideOf(x.shape, g.row), cs = StrideOf(x.shape, g.col);
  std::vector<double> work(static_cast<size_t>(g.m * g.n));
  for (int64_t r = 0; r < g.m; ++r)
    for (int64_t c = 0; c < g.n; ++c) {
      const double v = static_cast<double>(src[r * rs + c * cs]);
      // gesdd fails on NaN (info -4) and loops on inf: refuse them first
      WEFT_CHECK(std::isfinite(v), kInvalidArgument)
          << op << ": input 'x' has a non-finite value (" << v << ") in matrix " << b << " of the batch";
      work[static_cast<size_t>(r * g.n + c)] = v;
    }
  U->assign(static_cast<size_t>(g.m * g.k), 0.0);
  s->assign(static_cast<size_t>(g.k), 0.0);
  V->assign(static_cast<size_t>(g.k * g.n), 0.0);
  // Note [Row-major LAPACK] (lapack_cpu.cc), as np_svd.cc calls it
  const int info = lapack::Gesdd(g.n, g.m, work.data(), g.n, s->data(), V->data(), g.n, U->data(), g.k);
  WEFT_CHECK(info == 0, kInvalidArgument) << op << ": the SVD of input 'x' (matrix " << b
                                          << " of the batch) did not converge (LAPACK gesdd info " << info << ")";
}

}  // namespace

void SvdNormCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const SvdNormGeom g = GeomOf(kSvdNormOp, p, in[0].shape);
  if (g.batch == 0) return;
  const std::vector<double> w = Weights(p.GetString("ord"), g.k);
  WEFT_LINALG_REAL(in[0].dtype, T, {
    T* o = out[0].ptr<T>();
    ParallelFor(g.batch, g.m * g.n * g.k, [&](int64_t begin, int64_t end) {
      std::vector<double> U, s, V;
      for (int64_t b = begin; b < end; ++b) {
        SvdOf<T>(kSvdNormOp, in[0], g, b, &U, &s, &V);
        double v = 0;
        for (int64_t l = 0; l < g.k; ++l) v += w[static_cast<size_t>(l)] * s[static_cast<size_t>(l)];
        StoreReq(req[0], o + b, static_cast<T>(v));
      }
    });
  })
}

// Inputs: out_grad (the forward's output shape), x; output dx.
void SvdNormBackwardCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const TensorView& x = in[1];
  const SvdNormGeom g = GeomOf("_backward_weft_np_svd_norm", p, x.shape);
  if (g.batch == 0) return;
  const std::vector<double> w = Weights(p.GetString("ord"), g.k);
  const int64_t rs = StrideOf(x.shape, g.row), cs = StrideOf(x.shape, g.col);
  WEFT_LINALG_REAL(x.dtype, T, {
    const T* og = in[0].ptr<T>();
    T* dx = out[0].ptr<T>();
    // batch matrices own disjoint elements of dx, so the batch runs in parallel
    ParallelFor(g.batch, g.m * g.n * g.k, [&](int64_t begin, int64_t end) {
      std::vector<double> U, s, V;
      for (int64_t b = begin; b < end; ++b) {
        SvdOf<T>("_backward_weft_np_svd_norm", x, g, b, &U, &s, &V);
        const double gb = static_cast<double>(og[b]);
        T* d = dx + BatchOffset(x.shape, g, b);
        for (int64_t r = 0; r < g.m; ++r)
          for (int64_t c = 0; c < g.n; ++c) {
            double v = 0;  // (U diag(w) V^T)[r][c]
            for (int64_t l = 0; l < g.k; ++l) {
              const size_t ul = static_cast<size_t>(r * g.k + l), vl = static_cast<size_t>(l * g.n + c);
              v += U[ul] * w[static_cast<size_t>(l)] * V[vl];
            }
            StoreReq(req[0], d + r * rs + c * cs, static_cast<T>(gb * v));
          }
      }
    });
  })
}

namespace {

Shape OutShapeOf(const Shape& a, const SvdNormGeom& g, bool keepdims) {
  std::vector<int64_t> d;
  for (int i = 0; i < a.ndim(); ++i) {
    if (i != g.row && i != g.col)
      d.push_back(a[i]);
    else if (keepdims)
      d.push_back(1);
  }
  return Shape(d);
}

bool SvdNormShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string op = p.op()->name;
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  const SvdNormGeom g = GeomOf(op, p, a);
  AssignShape(out, 0, OutShapeOf(a, g, p.GetBool("keepdims")), op + ": output");
  return true;
}

bool SvdNormType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const DType t = (*in)[0];
  if (t == DType::kUnknown) return false;
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << p.op()->name << ": input 'x' must be float32 or float64, got " << DTypeName(t);
  AssignType(out, 0, t, p.op()->name + ": output");
  return true;
}

bool SvdNormBackwardShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::string op = p.op()->name;
  const Shape& a = (*in)[1];
  if (!a.known()) return false;
  const SvdNormGeom g = GeomOf(op, p, a);
  AssignShape(in, 0, OutShapeOf(a, g, p.GetBool("keepdims")), op + ": input 'out_grad'");
  AssignShape(out, 0, a, op + ": output");
  return true;
}

bool SvdNormBackwardType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const DType t = (*in)[1];
  if (t == DType::kUnknown) return false;
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << p.op()->name << ": input 'x' must be float32 or float64, got " << DTypeName(t);
  AssignType(in, 0, t, p.op()->name + ": input 'out_grad'");
  AssignType(out, 0, t, p.op()->name + ": output");
  return true;
}

std::vector<NodeEntry> SvdNormGrad(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const NodePtr g = b.NodeWithAttrs("_backward_weft_np_svd_norm", {og[0], b.in(0)});
  return {OutputOf(g, 0)};
}

constexpr const char* kOrdDoc = "'2' (the largest singular value), '-2' (the smallest) or 'nuc' (their sum).";
constexpr const char* kAxisDoc = "The two axes holding the matrices (rows, columns); the others are batch axes.";

WEFT_REGISTER_OP(kSvdNormOp)
    .describe("The matrix norms np.linalg.norm takes from singular values (ord=2, -2 or 'nuc' over two axes), "
              "one per matrix of x over `axis`: what MXNet 1.9.1's _npi_norm computes for flag 0 and 2, which "
              "the symbol reader translates to this op (Note [Singular-value norms]). float32 or float64. "
              "Differentiable: U diag(w) V^T, as MXNet's.\n\n"
              "Example::\n\n   _weft_np_svd_norm([[3, 0], [0, 4]], ord='2', axis=(0, 1)) = 4")
    .add_input("x")
    .add_enum_param("ord", {"2", "-2", "nuc"}, "2", kOrdDoc)
    .add_param("axis", ParamType::kShape, "(-2, -1)", kAxisDoc)
    .add_param("keepdims", ParamType::kBool, "False", "Keep the two axes with size one.")
    .set_infer_shape(SvdNormShape)
    .set_infer_type(SvdNormType)
    .set_compute_cpu(SvdNormCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpSvdNormGpu))
    .set_gradient(SvdNormGrad);

WEFT_REGISTER_OP("_backward_weft_np_svd_norm")
    .describe("Gradient of _weft_np_svd_norm: dx = out_grad * U diag(w) V^T per matrix, the SVD recomputed "
              "(Note [Singular-value norms]).")
    .add_input("out_grad")
    .add_input("x")
    .add_enum_param("ord", {"2", "-2", "nuc"}, "2", kOrdDoc)
    .add_param("axis", ParamType::kShape, "(-2, -1)", kAxisDoc)
    .add_param("keepdims", ParamType::kBool, "False", "Keep the two axes with size one.")
    .set_infer_shape(SvdNormBackwardShape)
    .set_infer_type(SvdNormBackwardType)
    .set_compute_cpu(SvdNormBackwardCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpSvdNormBackwardGpu));

}  // namespace
}  // namespace linalg
}  // namespace weft
