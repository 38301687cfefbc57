// _weft_np_norm: np.linalg.norm with a numeric `ord`, the vector or matrix
// norm chosen by the input's rank, and its backward op. Weft's own name:
// MXNet 1.9.1 computes it inside _npi_norm (flag -1), which Weft's symbol
// reader translates to this op (core/graph/np_nodes_nplinalg.cc, Note
// [NumPy-mode random and norm nodes]). GPU kernels: np_norm.cu, these on host
// copies.
//
// Note [Norms by the input's rank]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// np.linalg.norm(x, ord) with axis=None is a vector norm for a 1-D x and a
// matrix norm for a 2-D one (NumPy refuses other ranks: "Improper number of
// dimensions to norm"), and MXNet writes the same _npi_norm node (flag -1)
// for both. A graph's reader does not know the rank, so the node is this op,
// whose shape inference -- the first place the rank is known -- takes the
// decision; `axis` naming one axis is a vector norm, two axes a matrix norm.
// The formulas are NumPy's, in double, rounded once to x's dtype:
//   vector: inf max|v|, -inf min|v|, 0 the count of nonzeros, 1 sum|v|,
//           2 sqrt(sum v^2), else (sum |v|^ord)^(1/ord) (a negative ord with
//           a zero element gives 0, as NumPy's, where MXNet 1.9.1 gives a
//           nonzero value);
//   matrix: 1 / -1 the largest / smallest column sum of |x|, inf / -inf the
//           largest / smallest row sum, 2 / -2 the largest / smallest singular
//           value (_weft_np_svd_norm's kernel, Note [Singular-value norms]);
//           any other ord is refused (NumPy's "Invalid norm order for
//           matrices"; MXNet 1.9.1 returns a number for ord 3 of a matrix, and a
//           shape-(2,) result for a 3-D input with axis=None).
// Gradients (NumPy's formulas differentiated, checked by finite differences
// in tests/cpp/gradient_check_test.cc): vector sign(v) |v|^(ord-1) /
// norm^(ord-1) (1: sign(v); 2: v / norm; +-inf: sign(v) at every element whose
// |v| is the result; 0: zero), 0 where the norm is 0; matrix +-1 / +-inf:
// sign(x) on the first column / row reaching the extreme; +-2: U diag(w) V^T.
// MXNet 1.9.1's own gradients agree with these on every graph of
// tests/python/mxnet_written/np_norm_nodes/ (ords 3, -1, 0.5, 0, 4; matrix 1,
// -1, 2, -2, inf).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/linalg/np_norm_cpu.h"
#include "core/op/linalg/np_svd_norm_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace linalg {
namespace {

constexpr const char* kNpNormOp = "_weft_np_norm";

struct NpNormGeom {
  bool matrix = false;
  int ax0 = 0, ax1 = 0;       // the vector's axis; the matrix's rows and columns
  Shape out;                  // the result's shape
  std::vector<int64_t> stride;  // x's row-major strides
  std::vector<int> rest;      // the other axes, in order
};

NpNormGeom NpNormGeomOf(const std::string& op, const Params& p, const Shape& a) {
  const int nd = a.ndim();
  std::vector<int64_t> axes;
  if (p.IsNone("axis")) {
    // Note [Norms by the input's rank]
    WEFT_CHECK(nd == 1 || nd == 2, kShape) << op << ": improper number of dimensions to norm: input 'x' of shape "
                                           << a.ToString() << " with axis=None (1 or 2, as NumPy)";
    axes = nd == 1 ? std::vector<int64_t>{0} : std::vector<int64_t>{0, 1};
  } else {
    axes = p.GetTuple("axis");
    WEFT_CHECK(axes.size() == 1 || axes.size() == 2, kInvalidArgument)
        << op << ": parameter 'axis' = " << tensor::TupleString(axes) << " must name one or two axes";
  }
  NpNormGeom g;
  g.matrix = axes.size() == 2;
  g.ax0 = tensor::NormalizeAxis(axes[0], nd, op, "x");
  g.ax1 = g.matrix ? tensor::NormalizeAxis(axes[1], nd, op, "x") : g.ax0;
  WEFT_CHECK(!g.matrix || g.ax0 != g.ax1, kInvalidArgument) << op << ": parameter 'axis' names axis " << g.ax0
                                                            << " twice";
  const double ord = p.GetFloat("ord");
  const double inf = std::numeric_limits<double>::infinity();
  if (g.matrix) {
    WEFT_CHECK(ord == 1 || ord == -1 || ord == 2 || ord == -2 || ord == inf || ord == -inf, kInvalidArgument)
        << op << ": invalid norm order " << ord << " for matrices (1, -1, 2, -2, inf or -inf, as NumPy)";
    WEFT_CHECK(a[g.ax0] > 0 && a[g.ax1] > 0, kShape)
        << op << ": input 'x' of shape " << a.ToString() << " has empty matrices (NumPy refuses their norm)";
  } else if (ord == inf || ord == -inf) {
    WEFT_CHECK(a[g.ax0] > 0, kShape) << op << ": zero-size array to reduction operation "
                                     << (ord > 0 ? "maximum" : "minimum") << " (input 'x' of shape " << a.ToString()
                                     << ", ord " << ord << ")";
  }
  const bool keep = p.GetBool("keepdims");
  std::vector<int64_t> o;
  for (int d = 0; d < nd; ++d) {
    if (d == g.ax0 || d == g.ax1) {
      if (keep) o.push_back(1);
    } else {
      o.push_back(a[d]);
      g.rest.push_back(d);
    }
  }
  g.out = Shape(o);
  g.stride.assign(static_cast<size_t>(nd), 1);
  for (int d = nd - 2; d >= 0; --d) g.stride[static_cast<size_t>(d)] = g.stride[static_cast<size_t>(d + 1)] * a[d + 1];
  return g;
}

// The flat offset of result element o's first input element.
int64_t NpNormBaseOf(const Shape& a, const NpNormGeom& g, int64_t o) {
  int64_t off = 0;
  for (size_t i = g.rest.size(); i-- > 0;) {
    const int d = g.rest[i];
    off += (o % a[d]) * g.stride[static_cast<size_t>(d)];
    o /= a[d];
  }
  return off;
}

double NpNormSign(double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; }

// NumPy's vector norm of n values at x[base + k * step] (Note [Norms by the input's rank]).
template <typename T>
double NpVectorNorm(const T* x, int64_t base, int64_t step, int64_t n, double ord) {
  const double inf = std::numeric_limits<double>::infinity();
  double acc = ord == -inf ? inf : 0.0;
  for (int64_t k = 0; k < n; ++k) {
    const double v = std::fabs(static_cast<double>(x[base + k * step]));
    if (v != v) return v;
    if (ord == inf) acc = v > acc ? v : acc;
    else if (ord == -inf) acc = v < acc ? v : acc;
    else if (ord == 0) acc += v != 0 ? 1.0 : 0.0;
    else if (ord == 1) acc += v;
    else if (ord == 2) acc += v * v;
    else acc += std::pow(v, ord);
  }
  if (ord == inf || ord == -inf || ord == 0 || ord == 1) return acc;
  if (ord == 2) return std::sqrt(acc);
  return std::pow(acc, 1.0 / ord);
}

// The sums of |x| of a matrix's columns (by_col) or rows, and the index of the
// first largest (want_max) or smallest.
template <typename T>
int64_t NpNormExtremeLine(const T* x, int64_t base, const Shape& a, const NpNormGeom& g, bool by_col, bool want_max,
                    double* best) {
  const int64_t rows = a[g.ax0], cols = a[g.ax1];
  const int64_t rs = g.stride[static_cast<size_t>(g.ax0)], cs = g.stride[static_cast<size_t>(g.ax1)];
  const int64_t lines = by_col ? cols : rows, len = by_col ? rows : cols;
  int64_t at = 0;
  for (int64_t l = 0; l < lines; ++l) {
    double s = 0;
    for (int64_t k = 0; k < len; ++k) s += std::fabs(static_cast<double>(x[base + (by_col ? k * rs + l * cs : l * rs + k * cs)]));
    if (l == 0 || (want_max ? s > *best : s < *best) || s != s) {
      *best = s;
      at = l;
    }
  }
  return at;
}

// The parameters of _weft_np_svd_norm for the +-2 matrix norms.
Params NpNormSvdParams(const Params& p, const NpNormGeom& g) {
  const OpDef* svd = OpRegistry::Get()->Find("_weft_np_svd_norm");
  WEFT_CHECK(svd != nullptr, kInternal) << kNpNormOp << ": _weft_np_svd_norm is not registered";
  return Params::Parse(*svd, {{"ord", p.GetFloat("ord") > 0 ? "2" : "-2"},
                              {"axis", tensor::TupleString({g.ax0, g.ax1})},
                              {"keepdims", p.GetBool("keepdims") ? "True" : "False"}});
}

}  // namespace

void NormCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape& a = in[0].shape;
  const NpNormGeom g = NpNormGeomOf(kNpNormOp, p, a);
  const double ord = p.GetFloat("ord");
  if (g.matrix && std::fabs(ord) == 2) return SvdNormCompute(ctx, NpNormSvdParams(p, g), in, req, out);
  WEFT_LINALG_REAL(in[0].dtype, T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    for (int64_t o = 0; o < out[0].Size(); ++o) {
      const int64_t base = NpNormBaseOf(a, g, o);
      double v = 0;
      if (!g.matrix) {
        v = NpVectorNorm(x, base, g.stride[static_cast<size_t>(g.ax0)], a[g.ax0], ord);
      } else {
        NpNormExtremeLine(x, base, a, g, std::fabs(ord) == 1, ord > 0, &v);  // +-1 columns, +-inf rows
      }
      StoreReq(req[0], y + o, static_cast<T>(v));
    }
  })
}

// Inputs: out_grad (the forward's output shape), x; output dx.
void NormBackwardCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape& a = in[1].shape;
  const NpNormGeom g = NpNormGeomOf("_backward_weft_np_norm", p, a);
  const double ord = p.GetFloat("ord");
  if (g.matrix && std::fabs(ord) == 2) return SvdNormBackwardCompute(ctx, NpNormSvdParams(p, g), in, req, out);
  const double inf = std::numeric_limits<double>::infinity();
  const int64_t outs = g.out.Size();
  std::vector<double> d(static_cast<size_t>(a.Size()), 0.0);
  WEFT_LINALG_REAL(in[1].dtype, T, {
    const T* x = in[1].ptr<T>();
    const T* og = in[0].ptr<T>();
    for (int64_t o = 0; o < outs; ++o) {
      const int64_t base = NpNormBaseOf(a, g, o);
      const double gr = static_cast<double>(og[o]);
      if (!g.matrix) {
        const int64_t step = g.stride[static_cast<size_t>(g.ax0)], n = a[g.ax0];
        const double nrm = NpVectorNorm(x, base, step, n, ord);
        if (ord == 0 || nrm == 0 || nrm != nrm) continue;
        for (int64_t k = 0; k < n; ++k) {
          const double v = static_cast<double>(x[base + k * step]), av = std::fabs(v);
          double dv = 0;
          if (ord == inf || ord == -inf) dv = av == nrm ? NpNormSign(v) : 0.0;
          else if (ord == 1) dv = NpNormSign(v);
          else if (ord == 2) dv = v / nrm;
          else dv = av == 0 ? 0.0 : NpNormSign(v) * std::pow(av / nrm, ord - 1);
          d[static_cast<size_t>(base + k * step)] = gr * dv;
        }
      } else {
        const bool by_col = std::fabs(ord) == 1;
        double best = 0;
        const int64_t l = NpNormExtremeLine(x, base, a, g, by_col, ord > 0, &best);
        const int64_t rs = g.stride[static_cast<size_t>(g.ax0)], cs = g.stride[static_cast<size_t>(g.ax1)];
        const int64_t len = by_col ? a[g.ax0] : a[g.ax1];
        for (int64_t k = 0; k < len; ++k) {
          const int64_t at = base + (by_col ? k * rs + l * cs : l * rs + k * cs);
          d[static_cast<size_t>(at)] = gr * NpNormSign(static_cast<double>(x[at]));
        }
      }
    }
    T* dx = out[0].ptr<T>();
    for (int64_t i = 0; i < a.Size(); ++i) StoreReq(req[0], dx + i, static_cast<T>(d[static_cast<size_t>(i)]));
  })
}

namespace {

bool NpNormType(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t x) {
  const DType t = (*in)[x];
  if (t == DType::kUnknown) return false;
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << p.op()->name << ": input 'x' must be float32 or float64, got " << DTypeName(t);
  if (x == 1) AssignType(in, 0, t, p.op()->name + ": input 'out_grad'");
  AssignType(out, 0, t, p.op()->name + ": output");
  return true;
}

constexpr const char* kNpNormOrdDoc = "The order: any number for a vector norm (inf, -inf and 0 included); 1, -1, 2, "
                                "-2, inf or -inf for a matrix norm.";
constexpr const char* kNpNormAxisDoc = "One axis (a vector norm) or two (rows, columns: a matrix norm); None: the "
                                 "input's only axis (1-D) or both (2-D).";

WEFT_REGISTER_OP(kNpNormOp)
    .describe("np.linalg.norm(x, ord, axis, keepdims) for a numeric ord: a vector norm over one axis, a matrix "
              "norm over two, and with axis=None the one the input's rank asks for (Note [Norms by the input's "
              "rank]): what MXNet 1.9.1's _npi_norm computes for flag -1, which the symbol reader translates to "
              "this op. float32 or float64. Differentiable.\n\n"
              "Example::\n\n   _weft_np_norm([3, -4], ord=1) = 7")
    .add_input("x")
    .add_param("ord", ParamType::kFloat, "2", kNpNormOrdDoc)
    .add_optional_param("axis", ParamType::kShape, kNpNormAxisDoc)
    .add_param("keepdims", ParamType::kBool, "False", "Keep the reduced axes with size one.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, NpNormGeomOf(kNpNormOp, p, (*in)[0]).out, std::string(kNpNormOp) + ": output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return NpNormType(p, in, out, 0);
    })
    .set_compute_cpu(NormCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpNormGpu))
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {OutputOf(b.NodeWithAttrs("_backward_weft_np_norm", {og[0], b.in(0)}), 0)};
    });

WEFT_REGISTER_OP("_backward_weft_np_norm")
    .describe("Gradient of _weft_np_norm: out_grad times the derivative of NumPy's norm formula (Note [Norms by "
              "the input's rank]).")
    .add_input("out_grad")
    .add_input("x")
    .add_param("ord", ParamType::kFloat, "2", kNpNormOrdDoc)
    .add_optional_param("axis", ParamType::kShape, kNpNormAxisDoc)
    .add_param("keepdims", ParamType::kBool, "False", "Keep the reduced axes with size one.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const Shape& a = (*in)[1];
      if (!a.known()) return false;
      const std::string op = p.op()->name;
      AssignShape(in, 0, NpNormGeomOf(op, p, a).out, op + ": input 'out_grad'");
      AssignShape(out, 0, a, op + ": output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return NpNormType(p, in, out, 1);
    })
    .set_compute_cpu(NormBackwardCompute)
    .set_compute_gpu(WEFT_GPU(cuda::NpNormBackwardGpu));

}  // namespace
}  // namespace linalg
}  // namespace weft
