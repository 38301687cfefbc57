// _npi_tensorinv and _npi_tensorsolve (np.linalg.tensorinv / tensorsolve,
// MXNet 1.9.1's registered names) and their backward ops.
//
// Note [Tensor inverse and solve as reshaped matrices]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// tensorinv(a, ind) is the inverse of a read as the (P, P) matrix of its first
// `ind` axes by the others, written back with shape a.shape[ind:] +
// a.shape[:ind]; tensorsolve(a, b, a_axes) moves a's axes a_axes to the end
// (NumPy's `axes`), reads a as (P, P) and b as (P,), and solves; x has shape
// a.shape[b.ndim:] after the move. The arrays are contiguous, so the matrices
// are views of the same data with another shape, and the work is the
// registered kernels of _linalg_inverse, _npi_solve and _backward_npi_solve,
// run on those views (only tensorsolve's moved a is a transposed copy). The
// gradients are the matrix ones reshaped back: for X = A^-1, dA = -X^T G X^T;
// solve's as _backward_npi_solve, with dA moved back to a's axis order.
// As MXNet 1.9.1 (checked there): ind >= 1 and prod(a.shape[:ind]) ==
// prod(a.shape[ind:]) > 0, otherwise an error naming the op; tensorsolve needs
// prod(b.shape) == P (not b's shape itself). float32/float64 only: MXNet
// computes integer inputs in float64, which Weft refuses (cast first), as its
// other np.linalg operators do.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/linalg/linalg_util.h"
#include "core/op/linalg/np_tensor_solve_gpu.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
// A named namespace: the unity build compiles this folder's files as one
// translation unit, where other files' file-local helpers may share these names.
namespace np_tensor_solve_op {
namespace {

TensorView AsMatrix(const TensorView& v, int64_t rows, int64_t cols) {
  TensorView r = v;
  r.shape = Shape({rows, cols});
  return r;
}

TensorView AsVector(const TensorView& v) {
  TensorView r = v;
  r.shape = Shape({v.Size()});
  return r;
}

// Runs the registered CPU kernel of `name` (no parameters) on views.
void RunRegisteredCPU(const char* name, const OpContext& ctx, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const OpDef* op = OpRegistry::Get()->Find(name);
  WEFT_CHECK(op != nullptr && op->compute_cpu, kInternal) << name << " has no CPU kernel to run";
  op->compute_cpu(ctx, Params::Parse(*op, {}), in, req, out);
}

// ---- tensorinv ----

int64_t CheckedInd(const Params& p, int ndim) {
  const int64_t ind = p.GetInt("ind");
  WEFT_CHECK(ind > 0, kInvalidArgument) << p.op()->name << ": parameter 'ind' must be positive, got " << ind;
  WEFT_CHECK(ind <= ndim, kInvalidArgument)
      << p.op()->name << ": parameter 'ind' = " << ind << " exceeds the input's " << ndim << " dimensions";
  return ind;
}

// P for a of shape `a` split after axis ind (throws naming the op unless square and non-empty).
int64_t SquareSide(const Params& p, const Shape& a, int64_t ind) {
  const int64_t front = a.ProdRange(0, static_cast<int>(ind)), back = a.ProdRange(static_cast<int>(ind), a.ndim());
  WEFT_CHECK(front == back, kShape) << p.op()->name << ": input of shape " << a.ToString()
                                    << " is not square: prod(a.shape[:ind]) = " << front
                                    << " differs from prod(a.shape[ind:]) = " << back << " (ind = " << ind << ")";
  WEFT_CHECK(front > 0, kShape) << p.op()->name << ": input of shape " << a.ToString() << " is empty";
  return front;
}

// The shape tensorinv gives a (rotated by ind: a.shape[ind:] + a.shape[:ind]);
// rotating the output by ndim - ind gives a's shape back.
Shape Rotated(const Shape& s, int64_t by) {
  std::vector<int64_t> d(s.dims().begin() + by, s.dims().end());
  d.insert(d.end(), s.dims().begin(), s.dims().begin() + by);
  return Shape(d);
}

void TensorinvCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t n = SquareSide(p, in[0].shape, CheckedInd(p, in[0].ndim()));
  RunRegisteredCPU("_linalg_inverse", ctx, {AsMatrix(in[0], n, n)}, req, {AsMatrix(out[0], n, n)});
}

// Inputs (out_grad G, out X), both (P, P) as matrices: dA = -X^T G X^T.
template <typename T>
void TensorinvBackwardT(const TensorView& g, const TensorView& x, OpReq req, const TensorView& da, int64_t n) {
  std::vector<T> t(static_cast<size_t>(n * n)), d(static_cast<size_t>(n * n));
  nn_cpu::Gemm(false, true, n, n, n, g.ptr<T>(), n, x.ptr<T>(), n, T(0), t.data(), n);  // G X^T
  nn_cpu::Gemm(true, false, n, n, n, x.ptr<T>(), n, t.data(), n, T(0), d.data(), n);    // X^T G X^T
  T* o = da.ptr<T>();
  for (int64_t i = 0; i < n * n; ++i) StoreReq(req, o + i, static_cast<T>(-d[static_cast<size_t>(i)]));
}

void TensorinvBackwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t n = SquareSide(p, out[0].shape, CheckedInd(p, out[0].ndim()));
  if (in[0].dtype == DType::kFloat64) TensorinvBackwardT<double>(in[0], in[1], req[0], out[0], n);
  else TensorinvBackwardT<float>(in[0], in[1], req[0], out[0], n);
}

// ---- tensorsolve ----

// a's axis order after moving a_axes to the end (NumPy's `axes`).
std::vector<int> MovedAxes(const Params& p, int an) {
  std::vector<int> order;
  for (int i = 0; i < an; ++i) order.push_back(i);
  if (p.IsNone("a_axes")) return order;
  for (int64_t k : p.GetTuple("a_axes")) {
    WEFT_CHECK(k >= -an && k < an, kInvalidArgument)
        << p.op()->name << ": axis " << k << " in 'a_axes' is out of range for a of " << an << " dimensions";
    const int ax = static_cast<int>(k < 0 ? k + an : k);
    bool found = false;
    for (size_t i = 0; i < order.size(); ++i)
      if (order[i] == ax) {
        order.erase(order.begin() + static_cast<std::ptrdiff_t>(i));
        found = true;
        break;
      }
    WEFT_CHECK(found, kInvalidArgument) << p.op()->name << ": axis " << k << " is repeated in 'a_axes'";
    order.push_back(ax);
  }
  return order;
}

struct SolveGeom {
  std::vector<int> order;  // a's axes as moved
  Shape moved;             // a's shape after the move
  Shape x;                 // the solution's shape
  int64_t n = 0;           // P
};

SolveGeom SolveGeomOf(const Params& p, const Shape& a, const Shape& b) {
  SolveGeom g;
  g.order = MovedAxes(p, a.ndim());
  std::vector<int64_t> d;
  for (int ax : g.order) d.push_back(a[ax]);
  g.moved = Shape(d);
  WEFT_CHECK(b.ndim() <= a.ndim(), kShape) << p.op()->name << ": b of shape " << b.ToString()
                                           << " has more dimensions than a of shape " << a.ToString();
  g.x = Shape(std::vector<int64_t>(d.begin() + b.ndim(), d.end()));
  g.n = g.x.Size();
  const int64_t front = g.moved.ProdRange(0, b.ndim());
  WEFT_CHECK(front == g.n && b.Size() == g.n, kShape)
      << p.op()->name << ": a of shape " << a.ToString() << " (axes moved: " << g.moved.ToString() << ") and b of "
      << "shape " << b.ToString() << " do not fit: prod(a.shape[:b.ndim]) = " << front << ", prod(b.shape) = "
      << b.Size() << " and prod(a.shape[b.ndim:]) = " << g.n << " must be equal";
  WEFT_CHECK(g.n > 0, kShape) << p.op()->name << ": a of shape " << a.ToString() << " is empty";
  return g;
}

bool IsIdentity(const std::vector<int>& order) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int>(i)) return false;
  return true;
}

// Element offset in a (shape `a`) of each element of the moved array, in order.
std::vector<int64_t> MovedOffsets(const Shape& a, const std::vector<int>& order) {
  const int nd = a.ndim();
  std::vector<int64_t> stride(static_cast<size_t>(nd), 1), idx(static_cast<size_t>(nd), 0), offs;
  for (int i = nd - 2; i >= 0; --i) stride[static_cast<size_t>(i)] = stride[static_cast<size_t>(i + 1)] * a[i + 1];
  const int64_t size = a.Size();
  offs.reserve(static_cast<size_t>(size));
  int64_t off = 0;
  for (int64_t e = 0; e < size; ++e) {
    offs.push_back(off);
    for (int d = nd - 1; d >= 0; --d) {  // the odometer over the moved axes
      const int ax = order[static_cast<size_t>(d)];
      off += stride[static_cast<size_t>(ax)];
      if (++idx[static_cast<size_t>(d)] < a[ax]) break;
      off -= a[ax] * stride[static_cast<size_t>(ax)];
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  return offs;
}

template <typename T>
std::vector<T> MovedCopy(const TensorView& a, const std::vector<int>& order) {
  const std::vector<int64_t> offs = MovedOffsets(a.shape, order);
  std::vector<T> r(offs.size());
  const T* src = a.ptr<T>();
  for (size_t i = 0; i < offs.size(); ++i) r[i] = src[offs[i]];
  return r;
}

template <typename T>
void TensorsolveT(const OpContext& ctx, const SolveGeom& g, const std::vector<TensorView>& in, OpReq req,
                  const TensorView& out) {
  std::vector<T> moved;
  TensorView a = AsMatrix(in[0], g.n, g.n);
  if (!IsIdentity(g.order)) {
    moved = MovedCopy<T>(in[0], g.order);
    a.data = moved.data();
  }
  RunRegisteredCPU("_npi_solve", ctx, {a, AsVector(in[1])}, {req}, {AsVector(out)});
}

void TensorsolveCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const SolveGeom g = SolveGeomOf(p, in[0].shape, in[1].shape);
  if (in[0].dtype == DType::kFloat64) TensorsolveT<double>(ctx, g, in, req[0], out[0]);
  else TensorsolveT<float>(ctx, g, in, req[0], out[0]);
}

// Inputs (out_grad, a, b, x); outputs (a_grad, b_grad).
template <typename T>
void TensorsolveBackwardT(const OpContext& ctx, const SolveGeom& g, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  std::vector<T> moved = MovedCopy<T>(in[1], g.order), da(static_cast<size_t>(g.n * g.n));
  TensorView a = AsMatrix(in[1], g.n, g.n), dav = AsMatrix(out[0], g.n, g.n);
  a.data = moved.data();
  dav.data = da.data();
  RunRegisteredCPU("_backward_npi_solve", ctx, {AsVector(in[0]), a, AsVector(in[3])}, {OpReq::kWriteTo, req[1]},
                   {dav, AsVector(out[1])});
  if (req[0] == OpReq::kNull) return;
  const std::vector<int64_t> offs = MovedOffsets(in[1].shape, g.order);
  T* o = out[0].ptr<T>();
  if (req[0] != OpReq::kAddTo) out[0].ZeroFill();
  for (size_t i = 0; i < offs.size(); ++i) o[offs[i]] = static_cast<T>(o[offs[i]] + da[i]);
}

void TensorsolveBackwardCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const SolveGeom g = SolveGeomOf(p, in[1].shape, in[2].shape);
  if (in[1].dtype == DType::kFloat64) TensorsolveBackwardT<double>(ctx, g, in, req, out);
  else TensorsolveBackwardT<float>(ctx, g, in, req, out);
}

const char* const kAxesDoc = "a's axes moved to the end before the solve (NumPy's `axes`); None keeps a's order.";

[[maybe_unused]] const bool kNpTensorSolveRegistered = [] {
  WEFT_REGISTER_OP(inv, "_npi_tensorinv");
  inv.describe("NumPy's tensorinv (MXNet's `_npi_tensorinv`): the inverse of a with respect to tensordot over its "
               "first `ind` axes, of shape a.shape[ind:] + a.shape[:ind] (Note [Tensor inverse and solve as "
               "reshaped matrices]). float32 and float64 only.")
      .add_input("a")
      .add_param("ind", ParamType::kInt, "2", "The number of a's first axes that index the rows (>= 1).")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const int64_t ind = CheckedInd(p, (*in)[0].ndim());
        SquareSide(p, (*in)[0], ind);
        AssignShape(out, 0, Rotated((*in)[0], ind), "_npi_tensorinv: output");
        return true;
      })
      .set_infer_type(linalg::FloatTypeInfer)
      .set_compute_cpu(TensorinvCPU)
      .set_compute_gpu(WEFT_GPU(cuda::NpTensorinvGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        return ViaBackwardOp(n, "_backward_npi_tensorinv", {og[0], OutputOf(n, 0)});
      });

  WEFT_REGISTER_OP(binv, "_backward_npi_tensorinv");
  binv.describe("Gradient of _npi_tensorinv from out_grad G and the output X (input inverse), both read as (P, P): "
                "-X^T G X^T, in a's shape.")
      .add_input("out_grad")
      .add_input("inverse")
      .add_param("ind", ParamType::kInt, "2", "The forward's ind.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known()) return false;
        const Shape& x = (*in)[1];
        const int64_t ind = CheckedInd(p, x.ndim());
        const Shape a = Rotated(x, x.ndim() - ind);
        SquareSide(p, a, ind);
        AssignShape(in, 0, x, "_backward_npi_tensorinv: input 'out_grad'");
        AssignShape(out, 0, a, "_backward_npi_tensorinv: output");
        return true;
      })
      .set_infer_type(linalg::FloatTypeInfer)
      .set_compute_cpu(TensorinvBackwardCPU)
      .set_compute_gpu(WEFT_GPU(cuda::BackwardNpTensorinvGpu));

  WEFT_REGISTER_OP(solve, "_npi_tensorsolve");
  solve.describe("NumPy's tensorsolve (MXNet's `_npi_tensorsolve`): x with tensordot(a, x, x.ndim) = b, of shape "
                 "a.shape[b.ndim:] once a_axes are moved to the end (Note [Tensor inverse and solve as reshaped "
                 "matrices]). float32 and float64 only; a singular system is an error on the CPU.")
      .add_input("a")
      .add_input("b")
      .add_param("a_axes", ParamType::kShape, "None", kAxesDoc)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known() || !(*in)[1].known()) return false;
        AssignShape(out, 0, SolveGeomOf(p, (*in)[0], (*in)[1]).x, "_npi_tensorsolve: output");
        return true;
      })
      .set_infer_type(linalg::FloatTypeInfer)
      .set_compute_cpu(TensorsolveCPU)
      .set_compute_gpu(WEFT_GPU(cuda::NpTensorsolveGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        return ViaBackwardOp(n, "_backward_npi_tensorsolve", {og[0], n->inputs[0], n->inputs[1], OutputOf(n, 0)});
      });

  WEFT_REGISTER_OP(bsolve, "_backward_npi_tensorsolve");
  bsolve.describe("Gradients of _npi_tensorsolve from out_grad, a, b and the solution x: those of _npi_solve on "
                  "the (P, P) and (P,) views, a's moved back to a's axis order.")
      .add_input("out_grad")
      .add_input("a")
      .add_input("b")
      .add_input("x")
      .add_param("a_axes", ParamType::kShape, "None", kAxesDoc)
      .set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known() || !(*in)[2].known()) return false;
        const SolveGeom g = SolveGeomOf(p, (*in)[1], (*in)[2]);
        AssignShape(in, 0, g.x, "_backward_npi_tensorsolve: input 'out_grad'");
        AssignShape(in, 3, g.x, "_backward_npi_tensorsolve: input 'x'");
        AssignShape(out, 0, (*in)[1], "_backward_npi_tensorsolve: output 'a_grad'");
        AssignShape(out, 1, (*in)[2], "_backward_npi_tensorsolve: output 'b_grad'");
        return true;
      })
      .set_infer_type(linalg::FloatTypeInfer)
      .set_compute_cpu(TensorsolveBackwardCPU)
      .set_compute_gpu(WEFT_GPU(cuda::BackwardNpTensorsolveGpu));
  bsolve.list_output_names = [](const Params&) { return std::vector<std::string>{"a_grad", "b_grad"}; };
  return true;
}();

}  // namespace
}  // namespace np_tensor_solve_op
}  // namespace weft
