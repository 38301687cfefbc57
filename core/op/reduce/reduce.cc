// Reductions over axes (sum, mean, prod, max, min, nansum, nanprod, norm) and
// over one axis with an index result (argmax, argmin), with MXNet 1.x legacy
// semantics: reducing every axis without keepdims gives shape (1,), and an
// empty axis tuple means "all axes". Kernels: core/op/reduce/reduce_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/reduce/reduce_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/reduce/broadcast_reduce_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using tensor_cpu::ReduceKind;

// Flags the reduced dims of `in` and returns the output shape (MXNet's
// ReduceAxesShapeImpl). exclude=True reduces every axis *not* listed.
Shape ReduceAxesShape(const Params& p, const Shape& in, bool exclude, std::vector<bool>* red) {
  const std::string& op = p.op()->name;
  const int nd = in.ndim();
  const bool keep = p.GetBool("keepdims");
  red->assign(static_cast<size_t>(nd), false);
  if (p.IsNone("axis") || p.GetTuple("axis").empty()) {
    red->assign(static_cast<size_t>(nd), true);
    return keep ? Shape(std::vector<int64_t>(static_cast<size_t>(nd), 1)) : Shape{1};
  }
  const std::vector<int64_t>& axes = p.GetTuple("axis");
  tensor::CheckNoNone(axes, op, "axis");
  for (int64_t a : axes) {
    int ax = tensor::NormalizeAxis(a, nd, op, "data");
    WEFT_CHECK(!(*red)[static_cast<size_t>(ax)], kInvalidArgument)
        << op << ": reduction axes have duplicates: axis=" << tensor::TupleString(axes);
    (*red)[static_cast<size_t>(ax)] = true;
  }
  if (exclude) red->flip();
  Shape out;
  for (int i = 0; i < nd; ++i) {
    if (!(*red)[static_cast<size_t>(i)]) out.push_back(in[i]);
    else if (keep) out.push_back(1);
  }
  if (out.ndim() == 0) out = Shape{1};  // legacy (non-NumPy) mode never returns 0-d
  return out;
}

bool HasExclude(const Params& p) { return p.op()->ParamIndex("exclude") >= 0 && p.GetBool("exclude"); }

bool ReduceInferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known()) return false;
  std::vector<bool> red;
  AssignShape(out, 0, ReduceAxesShape(p, (*in)[0], HasExclude(p), &red), p.op()->name + ": output");
  return true;
}

FCompute ReduceCompute(ReduceKind kind) {
  return [kind](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    std::vector<bool> red;
    ReduceAxesShape(p, in[0].shape, HasExclude(p), &red);
    tensor_cpu::ReduceCPU(kind, in[0], red, req[0], out[0]);
  };
}

FGradient ReduceGradient(ReduceKind kind);

OpDef& ReduceAxesOp(const char* name, ReduceKind kind, const std::string& what) {
  WEFT_REGISTER_OP(op, name);
  op.describe("Computes the " + what +
              " of array elements over the given axes.\n\n"
              "With axis=None (or an empty tuple) every axis is reduced; the result then has shape "
              "(1,), or all-ones of the input's ndim with keepdims=True. Float16 and bfloat16 "
              "accumulate in float32, float32 in float64, integers in int64.")
      .add_input("data")
      .add_optional_param("axis", ParamType::kShape,
                          "The axis or axes to reduce (negative counts from the end). None reduces all axes.")
      .add_param("keepdims", ParamType::kBool, "False",
                 "If True, the reduced axes are kept in the result as dimensions of size one.")
      .add_param("exclude", ParamType::kBool, "False",
                 "If True, reduce every axis except the ones given in `axis`.")
      .set_infer_shape(ReduceInferShape)
      .set_compute_cpu(ReduceCompute(kind))
      .set_fusion(FusionClass::kReduce)
      .set_gradient(ReduceGradient(kind));
  return op;
}

// Gradient rules (MXNet's _backward_<reduce>): out_grad, and where needed the
// output, are broadcast back to data's shape by _backward_sum (which takes the
// forward's axis, keepdims and exclude); max and min send the gradient to every
// element equal to the result, prod divides the product by each element.
NodeEntry Broadcast(GradBuilder& b, const NodeEntry& e) {
  return OutputOf(b.NodeWithAttrs("_backward_sum", {e, b.in(0)}));
}

FGradient ReduceGradient(ReduceKind kind) {
  return [kind](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
    GradBuilder b(n);
    const NodeEntry x = b.in(0);
    // norm's out_dtype: the output and its gradient go back to data's dtype first.
    const bool cast = n->op->ParamIndex("out_dtype") >= 0 && !n->params.IsNone("out_dtype");
    const NodeEntry g = cast ? b("_backward_Cast", {og[0], x}) : og[0];
    const NodeEntry y = cast ? b("_backward_Cast", {b.out(), x}) : b.out();
    switch (kind) {
      case ReduceKind::kSum: return {Broadcast(b, g)};
      case ReduceKind::kMean: return {OutputOf(b.NodeWithAttrs("_backward_mean", {g, x}))};
      case ReduceKind::kMax:
      case ReduceKind::kMin: return {b.Mul(Broadcast(b, g), b("_equal", {x, Broadcast(b, y)}))};
      case ReduceKind::kProd: return {b.Mul(Broadcast(b, g), b.Div(Broadcast(b, y), x))};
      case ReduceKind::kNanSum: return {b.Mul(Broadcast(b, g), b("_equal", {x, x}))};
      case ReduceKind::kNanProd: {  // NaN elements get 0 (a select, so NaN / NaN cannot leak)
        const NodeEntry d = b.Mul(Broadcast(b, g), b.Div(Broadcast(b, y), x));
        return {b("where", {b("_equal", {x, x}), d, b.Zeros(x)})};
      }
      case ReduceKind::kNorm1: return {b.Mul(Broadcast(b, g), b("sign", {x}))};
      case ReduceKind::kNorm2: return {b.Mul(Broadcast(b, g), b.Div(x, Broadcast(b, y)))};
    }
    WEFT_THROW(kInternal) << "no gradient for " << n->op->name;
  };
}

[[maybe_unused]] OpDef& reg_sum = ReduceAxesOp("sum", ReduceKind::kSum, "sum").set_compute_gpu(WEFT_GPU(cuda::SumGpu)).add_method("sum").add_alias("sum_axis");
[[maybe_unused]] OpDef& reg_mean = ReduceAxesOp("mean", ReduceKind::kMean, "mean").set_compute_gpu(WEFT_GPU(cuda::MeanGpu)).add_method("mean");
[[maybe_unused]] OpDef& reg_prod = ReduceAxesOp("prod", ReduceKind::kProd, "product").set_compute_gpu(WEFT_GPU(cuda::ProdGpu)).add_method("prod");
[[maybe_unused]] OpDef& reg_max = ReduceAxesOp("max", ReduceKind::kMax, "maximum (NaN propagates)").set_compute_gpu(WEFT_GPU(cuda::MaxGpu)).add_method("max").add_alias("max_axis");
[[maybe_unused]] OpDef& reg_min = ReduceAxesOp("min", ReduceKind::kMin, "minimum (NaN propagates)").set_compute_gpu(WEFT_GPU(cuda::MinGpu)).add_method("min").add_alias("min_axis");
[[maybe_unused]] OpDef& reg_nansum = ReduceAxesOp("nansum", ReduceKind::kNanSum, "sum, treating NaN as zero,").set_compute_gpu(WEFT_GPU(cuda::NansumGpu)).add_method("nansum");
[[maybe_unused]] OpDef& reg_nanprod = ReduceAxesOp("nanprod", ReduceKind::kNanProd, "product, treating NaN as one,").set_compute_gpu(WEFT_GPU(cuda::NanprodGpu)).add_method("nanprod");

// ---- norm ----

ReduceKind NormKind(const Params& p) {
  int64_t ord = p.GetInt("ord");
  WEFT_CHECK(ord == 1 || ord == 2, kInvalidArgument) << "norm: parameter 'ord' must be 1 or 2, got " << ord;
  return ord == 1 ? ReduceKind::kNorm1 : ReduceKind::kNorm2;
}

WEFT_REGISTER_OP("norm").set_compute_gpu(WEFT_GPU(cuda::NormGpu)).add_method("norm")
    .describe("Computes the L1 (ord=1) or L2 (ord=2) norm of the elements over the given axes.\n\n"
              "The norm treats the selected axes as one flat vector (with two axes and ord=2 this is "
              "the Frobenius norm). axis=None reduces every axis to shape (1,).")
    .add_input("data")
    .add_param("ord", ParamType::kInt, "2", "Order of the norm: 1 or 2.")
    .add_optional_param("axis", ParamType::kShape, "The axis or axes to reduce. None reduces all axes.")
    .add_optional_param("out_dtype", ParamType::kDType, "The output dtype. None: the input's dtype.")
    .add_param("keepdims", ParamType::kBool, "False",
               "If True, the reduced axes are kept in the result as dimensions of size one.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      NormKind(p);
      return ReduceInferShape(p, in, out);
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      if (p.IsNone("out_dtype")) return SameTypeInfer(*p.op(), p, in, out);
      AssignType(out, 0, p.GetDType("out_dtype"), "norm: output (out_dtype)");
      return (*in)[0] != DType::kUnknown;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      std::vector<bool> red;
      ReduceAxesShape(p, in[0].shape, false, &red);
      tensor_cpu::ReduceCPU(NormKind(p), in[0], red, req[0], out[0]);
    })
    .set_fusion(FusionClass::kReduce)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
      return ReduceGradient(NormKind(n->params))(n, og);
    });

// ---- argmax / argmin ----

// MXNet's ReduceAxisShapeImpl; returns the normalized axis or -1 (flattened).
int ArgAxis(const Params& p, const Shape& in, Shape* out) {
  const std::string& op = p.op()->name;
  const bool keep = p.GetBool("keepdims");
  WEFT_CHECK(in.Size() > 0, kShape) << op << ": cannot reduce an empty input 'data' of shape " << in.ToString();
  if (p.IsNone("axis")) {
    *out = keep ? Shape(std::vector<int64_t>(static_cast<size_t>(in.ndim()), 1)) : Shape{1};
    return -1;
  }
  int ax = tensor::NormalizeAxis(p.GetInt("axis"), in.ndim(), op, "data");
  Shape o;
  for (int i = 0; i < in.ndim(); ++i) {
    if (i != ax) o.push_back(in[i]);
    else if (keep) o.push_back(1);
  }
  if (o.ndim() == 0) o = Shape{1};
  *out = o;
  return ax;
}

OpDef& ArgReduceOp(const char* name, bool is_max) {
  WEFT_REGISTER_OP(op, name);
  op.describe(std::string("Returns the indices of the ") + (is_max ? "maximum" : "minimum") +
              " values along an axis (the first one on ties; a NaN counts as the extreme).\n\n"
              "As in MXNet 1.x the indices are stored in the input's dtype (float32 for float32 "
              "input; bool input gives float32). axis=None searches the flattened array and gives shape (1,).")
      .add_input("data")
      .add_optional_param("axis", ParamType::kInt,
                          "The axis along which to search. None searches the flattened input.")
      .add_param("keepdims", ParamType::kBool, "False",
                 "If True, the searched axis is kept in the result as a dimension of size one.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        Shape o;
        ArgAxis(p, (*in)[0], &o);
        AssignShape(out, 0, o, p.op()->name + ": output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        DType t = (*in)[0];
        if (t == DType::kUnknown) return false;
        AssignType(out, 0, t == DType::kBool ? DType::kFloat32 : t, p.op()->name + ": output");
        return true;
      })
      .set_compute_cpu([is_max](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        Shape o;
        int ax = ArgAxis(p, in[0].shape, &o);
        tensor_cpu::ArgReduceCPU(is_max, in[0], ax, req[0], out[0]);
      })
      .set_fusion(FusionClass::kReduce)
      .set_gradient(ZeroGradients);  // MXNet's MakeZeroGradNodes
  return op;
}

[[maybe_unused]] OpDef& reg_argmax = ArgReduceOp("argmax", true).set_compute_gpu(WEFT_GPU(cuda::ArgmaxGpu)).add_method("argmax");
[[maybe_unused]] OpDef& reg_argmin = ArgReduceOp("argmin", false).set_compute_gpu(WEFT_GPU(cuda::ArgminGpu)).add_method("argmin");

}  // namespace
}  // namespace weft
