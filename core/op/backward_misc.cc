// Gradient helper ops that have no forward twin, and the GradBuilder used by
// the gradient rules (core/op/backward_misc.h). Each op takes the forward
// input whose shape (or dtype) its result has as an extra input: graph shape
// inference runs forward from the arguments, so a backward node cannot learn
// "the shape of the forward input" any other way. Kernels:
// core/op/cpu/backward_misc.cc (sums and scatters), cpu/dot.cc (GEMM),
// cpu/concat.cc (split), cpu/upsampling_sequence.cc.
#include "core/op/backward_misc.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/cpu/backward_misc.h"
#include "core/op/cpu/concat.h"
#include "core/op/cpu/copy.h"
#include "core/op/cpu/dot.h"
#include "core/op/cpu/upsampling_sequence.h"
#include "core/op/dot_geom.h"
#include "core/op/op_def.h"
#include "core/op/op_util.h"

namespace weft {

// ---- GradBuilder ----

std::string GradBuilder::NextName() {
  const std::string n = fwd_->name + "_backward" + (count_ == 0 ? std::string() : std::to_string(count_));
  ++count_;
  return n;
}

NodeEntry GradBuilder::operator()(const std::string& op, std::vector<NodeEntry> inputs,
                                  std::map<std::string, std::string> attrs, uint32_t index) {
  return NodeEntry{Node(op, std::move(inputs), std::move(attrs)), index, 0};
}

NodePtr GradBuilder::Node(const std::string& op, std::vector<NodeEntry> inputs,
                          std::map<std::string, std::string> attrs) {
  return MakeNode(op, NextName(), std::move(inputs), std::move(attrs));
}

std::map<std::string, std::string> GradBuilder::Attrs(const std::string& op) const {
  const OpDef& def = OpRegistry::Get()->FindOrThrow(op);
  std::map<std::string, std::string> r;
  for (const auto& kv : fwd_->attrs)
    if (def.FindParam(kv.first) != nullptr) r.insert(kv);
  return r;
}

NodePtr GradBuilder::NodeWithAttrs(const std::string& op, std::vector<NodeEntry> inputs,
                                   const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> attrs = Attrs(op);
  for (const auto& kv : extra) attrs[kv.first] = kv.second;
  return Node(op, std::move(inputs), std::move(attrs));
}

NodeEntry GradBuilder::Scalar(const std::string& op, const NodeEntry& a, double scalar) {
  return (*this)(op, {a}, {{"scalar", ScalarAttr(scalar)}});
}

std::string ScalarAttr(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

std::vector<NodeEntry> ZeroGradients(const NodePtr& node, const std::vector<NodeEntry>&) {
  GradBuilder b(node);
  std::vector<NodeEntry> r;
  for (const NodeEntry& in : node->inputs) r.push_back(b.Zeros(in));
  return r;
}

NodeEntry SumToShapeOf(GradBuilder& b, const NodeEntry& g, const NodeEntry& like) {
  return b("_broadcast_backward", {g, like});
}

std::vector<NodeEntry> ViaBackwardOp(const NodePtr& n, const std::string& op, std::vector<NodeEntry> inputs) {
  GradBuilder b(n);
  const NodePtr g = b.NodeWithAttrs(op, std::move(inputs));
  std::vector<NodeEntry> r(n->inputs.size());
  for (size_t i = 0; i < r.size() && static_cast<int>(i) < g->num_outputs(); ++i)
    r[i] = OutputOf(g, static_cast<uint32_t>(i));
  return r;
}

std::vector<NodeEntry> WeightLayerGradient(const NodePtr& n, const std::vector<NodeEntry>& og) {
  return ViaBackwardOp(n, "_backward_" + n->op->name, {og[0], n->inputs[0], n->inputs[1]});
}

// Note [Second order of a bilinear layer]
// FullyConnected, Convolution and Deconvolution are out = F(X, W) + b with F
// bilinear, and _backward_<op>(o, X, W) gives dX = J_X(W)^T o, dW = J_W(X)^T o
// and db = sum(o), where J_X(W) is the map X -> F(X, W) (it depends only on W)
// and J_W(X) the map W -> F(X, W). Given gX, gW, gb, the gradients of
// <gX, dX> + <gW, dW> + <gb, db> are, by bilinearity,
//   d/do = F(gX, W) + F(X, gW) + gb      = <op>(gX, W, no bias) + <op>(X, gW, gb)
//   d/dX = J_X(gW)^T o                   = data gradient of _backward_<op>(o, X, gW)
//   d/dW = J_W(gX)^T o                   = weight gradient of _backward_<op>(o, gX, W)
// so the second order reuses the layer's own two operators (GEMMs or
// convolutions) with the node's attributes.
std::vector<NodeEntry> WeightLayerSecondOrder(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const std::string fwd = n->op->name.substr(std::string("_backward_").size());
  const NodeEntry o = b.in(0), x = b.in(1), w = b.in(2);
  const NodeEntry from_gx = OutputOf(b.NodeWithAttrs(fwd, {og[0], w}, {{"no_bias", "True"}}));
  std::vector<NodeEntry> with_gw = {x, og[1]};
  if (n->num_outputs() > 2) with_gw.push_back(og[2]);
  const NodeEntry from_gw = OutputOf(b.NodeWithAttrs(fwd, with_gw));
  return {b("elemwise_add", {from_gx, from_gw}),
          OutputOf(b.NodeWithAttrs(n->op->name, {o, x, og[1]}), 0),
          OutputOf(b.NodeWithAttrs(n->op->name, {o, og[0], w}), 1)};
}

std::vector<NodeEntry> BinaryArithmeticGradient(const NodePtr& n, const NodeEntry& g, const std::string& what,
                                                bool broadcast) {
  GradBuilder b(n);
  const NodeEntry l = b.in(0), r = b.in(1), y = b.out();
  // Products of an output-shaped entry with an input: broadcast_* or elemwise_*.
  auto op = [&](const char* name) { return std::string(broadcast ? "broadcast_" : "elemwise_") + name; };
  auto cmp = [&](const char* name) { return std::string(broadcast ? "broadcast_" : "_") + name; };
  NodeEntry dl, dr;
  if (what == "add") {
    dl = g;
    dr = g;
  } else if (what == "sub") {
    dl = g;
    dr = b.Neg(g);
  } else if (what == "mul") {
    dl = b(op("mul"), {g, r});
    dr = b(op("mul"), {g, l});
  } else if (what == "div") {
    dl = b(op("div"), {g, r});
    dr = b.Neg(b(op("div"), {b.Mul(g, y), r}));
  } else if (what == "power") {  // d(l^r) = r l^(r-1) dl + l^r log(l) dr
    const NodeEntry lpow = b(broadcast ? "broadcast_power" : "_power", {l, b.Scalar("_minus_scalar", r, 1)});
    dl = b.Mul(g, b(op("mul"), {r, lpow}));
    dr = b(op("mul"), {b.Mul(g, y), b("log", {l})});
  } else if (what == "maximum" || what == "minimum") {
    const NodeEntry mask = b(cmp(what == "maximum" ? "greater_equal" : "lesser_equal"), {l, r});
    dl = b.Mul(g, mask);
    dr = b.Sub(g, dl);
  } else if (what == "mod") {  // l mod r = l - r floor(l / r)
    dl = g;
    dr = b.Neg(b.Mul(g, b("floor", {b(op("div"), {l, r})})));
  } else {
    WEFT_THROW(kInternal) << "gradient: no arithmetic rule '" << what << "' (" << n->op->name << ")";
  }
  if (broadcast) {
    dl = SumToShapeOf(b, dl, l);
    dr = SumToShapeOf(b, dr, r);
  }
  return {dl, dr};
}

namespace {

// ---- shared inference pieces ----

// Output 0 takes the shape of input `like`; the gradient input must be known too.
bool ShapeOfInput(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out, size_t like) {
  if (!(*in)[like].known()) return false;
  AssignShape(out, 0, (*in)[like], p.op()->name + ": output");
  return (*in)[0].known();
}

// Output 0 takes the dtype of input `src`; every other input is free.
bool TypeOfInput(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t src) {
  if ((*in)[src] == DType::kUnknown) return false;
  AssignType(out, 0, (*in)[src], p.op()->name + ": output");
  for (DType t : *in)
    if (t == DType::kUnknown) return false;
  return true;
}

// ---- _broadcast_backward ----

WEFT_REGISTER_OP("_broadcast_backward")
    .describe("Sums out_grad back to the shape of `like` (the gradient of an input that was broadcast): "
              "`like` is left-padded with 1s to out_grad's ndim and out_grad is summed over every axis "
              "where `like` has size 1. Only like's shape is read. Used by the broadcast_* operators, "
              "broadcast_to, broadcast_axis and broadcast_like.")
    .add_input("out_grad")
    .add_input("like")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      const Shape& g = (*in)[0];
      const Shape& l = (*in)[1];
      bool ok = l.ndim() <= g.ndim();
      for (int i = 0; ok && i < l.ndim(); ++i) {
        const int64_t d = l[i], gd = g[i + g.ndim() - l.ndim()];
        ok = d == gd || d == 1;
      }
      WEFT_CHECK(ok, kShape) << "_broadcast_backward: input 'like' of shape " << l.ToString()
                             << " does not broadcast to out_grad's shape " << g.ToString();
      AssignShape(out, 0, l, "_broadcast_backward: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::SumToShapeCPU(in[0], req[0], out[0]);
    })
    .set_fusion(FusionClass::kReduce)
    // Second order: the adjoint of summing to like's shape is broadcasting back
    // to out_grad's shape (broadcast_add onto zeros pads the axes as numpy does).
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("broadcast_add", {b.Zeros(b.in(0)), og[0]}), b.Zeros(b.in(1))};
    });

// ---- _backward_sum / _backward_mean ----

// The dims of `data` a reduction with p's axis / exclude flags reduced.
std::vector<bool> ReducedDims(const Params& p, const Shape& data) {
  const int nd = data.ndim();
  const std::string& op = p.op()->name;
  if (p.IsNone("axis") || p.GetTuple("axis").empty()) return std::vector<bool>(static_cast<size_t>(nd), true);
  std::vector<bool> red(static_cast<size_t>(nd), false);
  tensor::CheckNoNone(p.GetTuple("axis"), op, "axis");
  for (int64_t a : p.GetTuple("axis")) red[static_cast<size_t>(tensor::NormalizeAxis(a, nd, op, "data"))] = true;
  if (p.GetBool("exclude")) red.flip();
  return red;
}

int64_t ReducedCount(const std::vector<bool>& red, const Shape& data) {
  int64_t n = 1;
  for (int i = 0; i < data.ndim(); ++i)
    if (red[static_cast<size_t>(i)]) n *= data[i];
  return n;
}

void RegisterReduceBackward(const char* name, bool mean) {
  OpDef& op = OpRegistry::Get()->Add(name);
  op.describe(std::string("Gradient of ") + (mean ? "mean" : "sum") +
              " (and, combined with elementwise ops, of max, min, prod, nansum, nanprod and norm): "
              "out_grad, which has the reduced shape (with or without keepdims), is broadcast back to the "
              "shape of `data`" + (mean ? " and divided by the number of elements reduced" : "") +
              ". Takes the forward reduction's axis and exclude; only data's shape is read.")
      .add_input("out_grad")
      .add_input("data")
      .add_optional_param("axis", ParamType::kShape, "The axes the forward operator reduced. None: all axes.")
      .add_param("keepdims", ParamType::kBool, "False", "Accepted from the forward operator (the shape of "
                 "out_grad already says it).")
      .add_param("exclude", ParamType::kBool, "False", "If True, the forward reduced every axis not in `axis`.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapeOfInput(p, in, out, 1)) return false;
        const Shape& d = (*in)[1];
        const int64_t reduced = ReducedCount(ReducedDims(p, d), d);
        WEFT_CHECK(d.Size() == 0 || (*in)[0].Size() * reduced == d.Size(), kShape)
            << p.op()->name << ": out_grad of shape " << (*in)[0].ToString()
            << " does not have the reduced size of data " << (*in)[1].ToString();
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0);
      })
      .set_compute_cpu([mean](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const std::vector<bool> red = ReducedDims(p, in[1].shape);
        const int64_t n = ReducedCount(red, in[1].shape);
        const double scale = mean && n > 0 ? 1.0 / static_cast<double>(n) : 1.0;
        tensor_cpu::BroadcastReducedCPU(in[0], red, scale, req[0], out[0]);
      })
      .set_fusion(FusionClass::kInjective)
      // Second order: the op is linear in out_grad, and its adjoint is the
      // forward reduction (sum or mean) with the same axis, keepdims and
      // exclude, which gives back out_grad's shape. data's values are unread.
      .set_gradient([mean](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {OutputOf(b.NodeWithAttrs(mean ? "mean" : "sum", {og[0]})), b.Zeros(b.in(1))};
      });
}

[[maybe_unused]] const bool kReduceBackwardRegistered = [] {
  RegisterReduceBackward("_backward_sum", false);
  RegisterReduceBackward("_backward_mean", true);
  return true;
}();

// ---- _backward_dot / _backward_batch_dot ----

}  // namespace

namespace tensor {
namespace {

// Note [Dot backward]
// dot sees lhs as a matrix A2 = (prod(L[:-1]), L[-1]), or (L[0], prod(L[1:]))
// with transpose_a, and rhs as B2 = (R[0], prod(R[1:])), or (prod(R[:-1]),
// R[-1]) with transpose_b (1-D inputs fit the same formulas), and computes
// C = op(A2) op(B2), shape (M, N). With G = dC:
//   dA2 = G op(B2)^T          (A2 = op(A2))     dB2 = op(A2)^T G        (B2 = op(B2))
//   dA2 = op(B2) G^T          (transpose_a)     dB2 = G^T op(A2)        (transpose_b)
// batch_dot does the same per batch on the last two axes.
struct Mat {
  int64_t rows, cols;
};

Mat AsMatrix(const Shape& s, bool leading_axis_alone, bool batched) {
  const int nd = s.ndim();
  if (batched) return Mat{s[nd - 2], s[nd - 1]};
  if (leading_axis_alone) return Mat{s[0], s.ProdRange(1, nd)};
  return Mat{s.ProdRange(0, nd - 1), s[nd - 1]};
}

}  // namespace

DotBackwardPlan DotBackwardGeometry(const Params& p, const Shape& lhs, const Shape& rhs, bool batched) {
  const bool ta = p.GetBool("transpose_a"), tb = p.GetBool("transpose_b");
  const Mat a = AsMatrix(lhs, ta, batched), b = AsMatrix(rhs, !tb, batched);
  const int64_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols, n = tb ? b.rows : b.cols;
  const int64_t batch = batched ? lhs.ProdRange(0, lhs.ndim() - 2) : 1;
  const int64_t size_a = a.rows * a.cols, size_b = b.rows * b.cols, size_g = m * n;
  // GEMM(trans_a, trans_b, m, n, k) of inputs (x, y), each product of the
  // batch sa / sb elements after the last.
  auto gemm = [&](bool trans_a, bool trans_b, int64_t gm, int64_t gn, int64_t gk, int64_t sa, int64_t sb, int x,
                  int y) {
    DotGradGemm g;
    g.desc.trans_a = trans_a;
    g.desc.trans_b = trans_b;
    g.desc.m = gm;
    g.desc.n = gn;
    g.desc.k = gk;
    g.desc.batch = batch;
    g.desc.stride_a = sa;
    g.desc.stride_b = sb;
    g.desc.stride_c = gm * gn;
    g.a = x;
    g.b = y;
    return g;
  };
  DotBackwardPlan plan;
  plan.grad[0] = !ta ? gemm(false, !tb, m, k, n, size_g, size_b, 0, 2) : gemm(tb, true, k, m, n, size_b, size_g, 2, 0);
  plan.grad[1] = !tb ? gemm(!ta, false, k, n, m, size_a, size_g, 1, 0) : gemm(true, ta, n, k, m, size_g, size_a, 0, 1);
  return plan;
}

}  // namespace tensor

namespace {

void DotBackward(const Params& p, bool batched, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  const tensor::DotBackwardPlan plan = tensor::DotBackwardGeometry(p, in[1].shape, in[2].shape, batched);
  for (size_t i = 0; i < 2; ++i) {
    const tensor::DotGradGemm& g = plan.grad[i];
    if (req[i] != OpReq::kNull) tensor_cpu::GemmCPU(g.desc, in[g.a], in[g.b], req[i], out[i]);
  }
}

void RegisterDotBackward(const char* name, bool batched) {
  OpDef& op = OpRegistry::Get()->Add(name);
  op.describe(std::string("Gradients of ") + (batched ? "batch_dot" : "dot") +
              ": inputs (out_grad, lhs, rhs), outputs (lhs_grad, rhs_grad) of lhs's and rhs's shapes. Takes "
              "the forward's transpose_a and transpose_b. See Note [Dot backward] in core/op/backward_misc.cc.")
      .add_input("out_grad")
      .add_input("lhs")
      .add_input("rhs")
      .add_param("transpose_a", ParamType::kBool, "False", "If True, the forward used the transpose of lhs.")
      .add_param("transpose_b", ParamType::kBool, "False", "If True, the forward used the transpose of rhs.")
      .set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known() || !(*in)[2].known()) return false;
        AssignShape(out, 0, (*in)[1], p.op()->name + ": output 'lhs_grad'");
        AssignShape(out, 1, (*in)[2], p.op()->name + ": output 'rhs_grad'");
        return (*in)[0].known();
      })
      .set_compute_cpu([batched](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        DotBackward(p, batched, in, req, out);
      });
  op.list_output_names = [](const Params&) { return std::vector<std::string>{"lhs_grad", "rhs_grad"}; };
}

[[maybe_unused]] const bool kDotBackwardRegistered = [] {
  RegisterDotBackward("_backward_dot", false);
  RegisterDotBackward("_backward_batch_dot", true);
  return true;
}();

// ---- _backward_reshape ----

WEFT_REGISTER_OP("_backward_reshape")
    .describe("Gradient of Reshape, Flatten, expand_dims and squeeze: out_grad's elements in the shape of "
              "`data` (only data's shape is read).")
    .add_input("out_grad")
    .add_input("data")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!ShapeOfInput(p, in, out, 1)) return false;
      WEFT_CHECK((*in)[0].Size() == (*in)[1].Size(), kShape)
          << "_backward_reshape: out_grad of shape " << (*in)[0].ToString() << " has another size than data "
          << (*in)[1].ToString();
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 0);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
    })
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kInjective)
    // Second order: the incoming gradient back in out_grad's shape.
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_backward_reshape", {og[0], b.in(0)}), b.Zeros(b.in(1))};
    });

// ---- _backward_Cast ----

WEFT_REGISTER_OP("_backward_Cast")
    .describe("Gradient of Cast: out_grad converted back to the dtype of `data` (only data's dtype is read; "
              "the result has out_grad's shape, so norm's rule also uses it for out_dtype).")
    .add_input("out_grad")
    .add_input("data")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, (*in)[0], "_backward_Cast: output");
      return (*in)[1].known();
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      return TypeOfInput(p, in, out, 1);
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
    })
    .set_fusion(FusionClass::kElementwise);

// ---- _backward_Concat ----

std::vector<std::string> GradAndArgs(const Params& p) {
  std::vector<std::string> n = {"out_grad"};
  for (int64_t i = 0; i < p.GetInt("num_args"); ++i) n.push_back("arg" + std::to_string(i));
  return n;
}

std::vector<std::string> ArgGrads(const Params& p) {
  std::vector<std::string> n;
  for (int64_t i = 0; i < p.GetInt("num_args"); ++i) n.push_back("arg" + std::to_string(i) + "_grad");
  return n;
}

// Outputs take the shapes of inputs 1.. (the forward inputs).
bool ShapesOfArgs(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  WEFT_CHECK(p.GetInt("num_args") >= 1, kInvalidArgument)
      << p.op()->name << ": parameter 'num_args' must be at least 1, got " << p.GetInt("num_args");
  bool known = (*in)[0].known();
  for (size_t i = 1; i < in->size(); ++i) {
    known = known && (*in)[i].known();
    AssignShape(out, i - 1, (*in)[i], p.op()->name + ": output " + std::to_string(i - 1));
  }
  return known;
}

[[maybe_unused]] const bool kConcatBackwardRegistered = [] {
  OpDef& op = OpRegistry::Get()->Add("_backward_Concat");
  op.describe("Gradient of Concat: inputs (out_grad, arg0, ..., arg{num_args-1}), where the args are the "
              "forward inputs (only their shapes are read); output i is the part of out_grad along `dim` "
              "that came from arg i.")
      .set_variadic("num_args")
      .add_required_param("num_args", ParamType::kInt, "Number of inputs the forward Concat joined.")
      .add_param("dim", ParamType::kInt, "1", "The axis the forward joined along.")
      .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
      .set_infer_shape(ShapesOfArgs)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const int axis = tensor::NormalizeAxis(p.GetInt("dim"), in[0].ndim(), "_backward_Concat", "out_grad", 0,
                                               "dim");
        tensor_cpu::SplitCPU(in[0], in[0].shape.ProdRange(0, axis), req, out);
      });
  op.list_input_names = GradAndArgs;
  op.list_output_names = ArgGrads;
  return true;
}();

// ---- _backward_UpSampling_multi ----

[[maybe_unused]] const bool kUpSamplingMultiRegistered = [] {
  OpDef& op = OpRegistry::Get()->Add("_backward_UpSampling_multi");
  op.describe("Gradient of nearest UpSampling with any num_args: inputs (out_grad, arg0, ..., "
              "arg{num_args-1}), where the args are the forward inputs (only their shapes are read; "
              "_backward_UpSampling cannot infer them from out_grad when num_args > 1). Output i gets the "
              "block sums of out_grad over input i's channels.")
      .set_variadic("num_args")
      .add_required_param("num_args", ParamType::kInt, "Number of inputs of the forward UpSampling.")
      .add_enum_param("multi_input_mode", {"concat", "sum"}, "concat",
                      "How the forward combined its inputs (see UpSampling).")
      .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
      .set_infer_shape(ShapesOfArgs)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::UpSamplingNearestBackward(in[0], p.GetString("multi_input_mode") == "sum", req, out);
      });
  op.list_input_names = GradAndArgs;
  op.list_output_names = ArgGrads;
  return true;
}();

// ---- _backward_slice_axis ----

[[maybe_unused]] const bool kSliceAxisBackwardRegistered = [] {
  OpDef& op = OpRegistry::Get()->Add("_backward_slice_axis");
  op.describe("Gradient of slice_axis: zeros of data's shape with out_grad at data[..., begin:end, ...] "
              "along `axis` (only data's shape is read). Takes slice_axis's parameters.")
      .add_input("out_grad")
      .add_input("data")
      .add_required_param("axis", ParamType::kInt, "The axis the forward sliced.")
      .add_required_param("begin", ParamType::kInt, "The first index of the forward (negative counts from the end).")
      .add_optional_param("end", ParamType::kInt, "The stop index of the forward; None: the axis size.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!ShapeOfInput(p, in, out, 1)) return false;
        const Shape& d = (*in)[1];
        const int axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "_backward_slice_axis", "data");
        const Shape& g = (*in)[0];
        bool ok = g.ndim() == d.ndim() && g[axis] <= d[axis];
        for (int i = 0; ok && i < d.ndim(); ++i) ok = i == axis || g[i] == d[i];
        WEFT_CHECK(ok, kShape)
            << "_backward_slice_axis: out_grad of shape " << (*in)[0].ToString() << " is not a slice along axis "
            << axis << " of data " << d.ToString();
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return TypeOfInput(p, in, out, 0);
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const Shape& d = in[1].shape;
        const int axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "_backward_slice_axis", "data");
        int64_t begin = p.GetInt("begin");
        if (begin < 0) begin += d[axis];
        tensor_cpu::SliceAxisBackwardCPU(in[0], axis, begin, req[0], out[0]);
      })
      // Second order: the adjoint of placing out_grad in the slice is taking the slice.
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {OutputOf(b.NodeWithAttrs("slice_axis", {og[0]})), b.Zeros(b.in(1))};
      });
  return true;
}();

// ---- _backward_take / _backward_pick / _backward_gather_nd ----

tensor_cpu::IndexMode ModeOf(const Params& p) {
  const std::string& m = p.GetString("mode");
  return m == "wrap" ? tensor_cpu::IndexMode::kWrap
                     : (m == "raise" ? tensor_cpu::IndexMode::kRaise : tensor_cpu::IndexMode::kClip);
}

// Inputs (out_grad, indices, data): output 0 has data's shape and out_grad's dtype.
bool ScatterShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[2].known()) return false;
  AssignShape(out, 0, (*in)[2], p.op()->name + ": output");
  return (*in)[0].known() && (*in)[1].known();
}

bool ScatterType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  return TypeOfInput(p, in, out, 0);
}

WEFT_REGISTER_OP("_backward_take")
    .describe("Gradient of take with respect to `a`: inputs (out_grad, indices, a); zeros of a's shape with "
              "out_grad's rows added where take read them (repeated indices accumulate). Only a's shape is "
              "read. Takes take's axis and mode.")
    .add_input("out_grad")
    .add_input("indices")
    .add_input("a")
    .add_param("axis", ParamType::kInt, "0", "The axis the forward took along.")
    .add_enum_param("mode", {"clip", "wrap", "raise"}, "clip", "How the forward handled out-of-range indices.")
    .set_infer_shape(ScatterShape)
    .set_infer_type(ScatterType)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[2].ndim(), "_backward_take", "a");
      tensor_cpu::TakeBackwardCPU(in[0], in[1], axis, ModeOf(p), req[0], out[0]);
    });

WEFT_REGISTER_OP("_backward_pick")
    .describe("Gradient of pick with respect to `data`: inputs (out_grad, index, data); zeros of data's "
              "shape except out_grad at each picked position. Only data's shape is read. Takes pick's "
              "axis, keepdims and mode.")
    .add_input("out_grad")
    .add_input("index")
    .add_input("data")
    .add_param("axis", ParamType::kInt, "-1", "The axis the forward picked along.")
    .add_param("keepdims", ParamType::kBool, "False", "Whether the forward kept the picked axis.")
    .add_enum_param("mode", {"clip", "wrap"}, "clip", "How the forward handled out-of-range indices.")
    .set_infer_shape(ScatterShape)
    .set_infer_type(ScatterType)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      const int axis = tensor::NormalizeAxis(p.GetInt("axis"), in[2].ndim(), "_backward_pick", "data");
      tensor_cpu::PickBackwardCPU(in[0], in[1], axis, ModeOf(p), req[0], out[0]);
    });

WEFT_REGISTER_OP("_backward_gather_nd")
    .describe("Gradient of gather_nd with respect to `data`: inputs (out_grad, indices, data); zeros of "
              "data's shape with each gathered slice of out_grad added back at its index (repeated indices "
              "accumulate, like MXNet's _backward_gather_nd). Only data's shape is read.")
    .add_input("out_grad")
    .add_input("indices")
    .add_input("data")
    .set_infer_shape(ScatterShape)
    .set_infer_type(ScatterType)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::GatherNDBackwardCPU(in[0], in[1], req[0], out[0]);
    });

}  // namespace
}  // namespace weft
