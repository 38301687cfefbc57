// MXNet 1.9.1's NumPy-mode reductions whose results no legacy reduction gives
// (issue 37: declared under MXNet's registered names, so graphs MXNet wrote in
// NumPy mode load): _npi_argmax/_npi_argmin (int64 indices), _np_all/_np_any
// (bool; `_np_sometrue` is MXNet's alias of _np_any), _npi_std/_npi_var
// (ddof, an output dtype) and _np_sum/_npi_mean/_np_prod/_np_max/_np_min
// (Note [NumPy sums and their dtypes]). A full reduction gives a 0-d array, as
// in MXNet's NumPy mode (the legacy ops give (1,)). MXNet gives the first six
// zero gradients (MakeZeroGradNodes), and so does Weft. One loop per output
// element runs the rules of np_reduce_rules.h on either device (Note [NumPy
// reductions as one loop per output]); GPU kernels in np_reduce.cu.
//
// Note [NumPy sums and their dtypes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// np.sum/mean/prod/max/min in a graph MXNet 1.9.1 wrote are nodes of these
// operators, with MXNet's parameters (axis: None every axis, () none; dtype;
// keepdims; initial, which MXNet refuses to compute: "initial is not supported
// yet", refused here too). The output dtype is MXNet's type inference
// (NumpySumType, NumpyMeanType in np_broadcast_reduce_op_value.cc), which
// depends on the input's dtype -- the reason these are operators and not the
// legacy reductions the graph reader once put in their place:
//   sum, prod: `dtype` if given (a bool input only to int32, int64, float32 or
//              float64), else int64 for bool and the input's dtype otherwise;
//   mean:      `dtype` if given, else the input's dtype for floats and float32
//              (MXNet's default float type) for integers and bool;
//   max, min:  the input's dtype (they take no dtype).
// Where the output dtype differs from the input's, the input is converted to
// it first and reduced in it (an int8 sum as int64 does not wrap, a float32
// sum asked for as float16 sums the rounded values: MXNet's results in both).
// An empty reduction gives NumPy's results, sum 0, prod 1, mean NaN (MXNet
// 1.9.1 writes 0 for the last two); max and min of one are refused, as MXNet
// and NumPy refuse them. Gradients: the head gradient back in the input's
// dtype, broadcast back over the reduced axes (sum; mean divides by the count;
// max/min to every element equal to the result; prod times result / element,
// as the legacy rules and MXNet's).
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/req_hd.h"
#include "core/op/op_util.h"
#include "core/op/reduce/np_reduce_rules.h"
#include "core/op/reduce/np_reduce_gpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor {

NpReduceGeom NpReduceGeomOf(const Shape& in, const std::vector<bool>& reduce, const std::string& op) {
  NpReduceGeom g;
  // merged runs of adjacent axes of one kind, outermost first; size-1 axes join any run
  std::vector<int64_t> sizes;
  std::vector<bool> kinds;
  for (int i = 0; i < in.ndim(); ++i) {
    const bool r = reduce[static_cast<size_t>(i)];
    if (in[i] == 1) continue;
    if (!kinds.empty() && kinds.back() == r) {
      sizes.back() *= in[i];
    } else {
      sizes.push_back(in[i]);
      kinds.push_back(r);
    }
  }
  int64_t stride = 1;
  std::vector<int64_t> strides(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= sizes[i];
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    int& n = kinds[i] ? g.nred : g.nkept;
    WEFT_CHECK(n < kNpReduceMaxDims, kShape) << op << ": input of shape " << in.ToString() << " has more than "
                                             << kNpReduceMaxDims << " alternating reduced and kept axes";
    (kinds[i] ? g.red_shape : g.kept_shape)[n] = sizes[i];
    (kinds[i] ? g.red_stride : g.kept_stride)[n] = strides[i];
    ++n;
    (kinds[i] ? g.red_size : g.out_size) *= sizes[i];
  }
  return g;
}

Shape NpReduceShape(const Params& p, const Shape& in, std::vector<bool>* reduce) {
  const bool int_axis = p.op()->name == "_npi_argmax" || p.op()->name == "_npi_argmin";
  const std::string& op = p.op()->name;
  const int nd = in.ndim();
  reduce->assign(static_cast<size_t>(nd), p.IsNone("axis"));
  if (!p.IsNone("axis")) {
    const ParamValue& v = p.Get("axis");
    // argmax/argmin take one int, the others a tuple (an int is read as a 1-tuple)
    const std::vector<int64_t> axes = int_axis ? std::vector<int64_t>{v.i} : v.tuple;
    CheckNoNone(axes, op, "axis");
    for (int64_t a : axes) {
      const int ax = NormalizeAxis(a, nd, op, "data");
      WEFT_CHECK(!(*reduce)[static_cast<size_t>(ax)], kInvalidArgument)
          << op << ": duplicate value in 'axis' = " << TupleString(axes);
      (*reduce)[static_cast<size_t>(ax)] = true;
    }
  }
  const bool keep = p.GetBool("keepdims");
  Shape out;
  for (int i = 0; i < nd; ++i) {
    if (!(*reduce)[static_cast<size_t>(i)]) out.push_back(in[i]);
    else if (keep) out.push_back(1);
  }
  return out;
}

}  // namespace tensor

namespace {

using tensor::NpReduceKind;
using tensor::NpReduceKindOf;

bool NpRedIsArg(NpReduceKind k) { return k == NpReduceKind::kArgmax || k == NpReduceKind::kArgmin; }
// _np_sum, _npi_mean, _np_prod, _np_max, _np_min (Note [NumPy sums and their dtypes])
bool NpRedIsValue(NpReduceKind k) { return k >= NpReduceKind::kSum; }

const char* NpRedWhat(NpReduceKind k) { return k == NpReduceKind::kMax ? "maximum" : "minimum"; }

bool NpRedInferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  std::vector<bool> red;
  const Shape o = tensor::NpReduceShape(p, a, &red);
  const NpReduceKind k = NpReduceKindOf(p.op()->name);
  if (NpRedIsArg(k)) {
    WEFT_CHECK(a.Size() > 0, kShape) << p.op()->name << ": attempt to get " << p.op()->name.substr(5)
                                     << " of an empty sequence (input 'data' of shape " << a.ToString() << ")";
  }
  if (NpRedIsValue(k)) {
    WEFT_CHECK(p.IsNone("initial"), kInvalidArgument)
        << p.op()->name << ": parameter 'initial' = " << p.Get("initial").f
        << " is not supported (MXNet 1.9.1 refuses it too: \"initial is not supported yet\")";
  }
  if (k == NpReduceKind::kMax || k == NpReduceKind::kMin) {
    for (int i = 0; i < a.ndim(); ++i)
      WEFT_CHECK(!red[static_cast<size_t>(i)] || a[i] > 0, kShape)
          << p.op()->name << ": zero-size array to reduction operation " << NpRedWhat(k)
          << " which has no identity (input 'a' of shape " << a.ToString() << ", axis " << i << ")";
  }
  AssignShape(out, 0, o, p.op()->name + ": output");
  return true;
}

// MXNet 1.9.1's NumpySumType / NumpyMeanType (Note [NumPy sums and their dtypes]).
bool NpValueInferType(const Params& p, NpReduceKind k, std::vector<DType>* in, std::vector<DType>* out) {
  const DType a = (*in)[0];
  const bool has_dtype = k != NpReduceKind::kMax && k != NpReduceKind::kMin && !p.IsNone("dtype");
  DType t = DType::kUnknown;
  if (has_dtype) {
    t = p.GetDType("dtype");
    const bool sum_like = k == NpReduceKind::kSum || k == NpReduceKind::kProd;
    WEFT_CHECK(!(sum_like && a == DType::kBool) || t == DType::kInt32 || t == DType::kInt64 ||
                   t == DType::kFloat32 || t == DType::kFloat64,
               kDType)
        << p.op()->name << ": parameter 'dtype' = " << DTypeName(t)
        << " is not supported for a bool input 'a' (int32, int64, float32 or float64, as in MXNet)";
  } else if (a == DType::kUnknown) {
    return false;
  } else if (k == NpReduceKind::kMean) {
    t = IsFloating(a) ? a : DType::kFloat32;
  } else if (a == DType::kBool && k != NpReduceKind::kMax && k != NpReduceKind::kMin) {
    t = DType::kInt64;
  } else {
    t = a;
  }
  AssignType(out, 0, t, p.op()->name + ": output");
  return a != DType::kUnknown;
}

bool NpRedInferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const NpReduceKind k = NpReduceKindOf(p.op()->name);
  DType t = DType::kUnknown;
  if (NpRedIsArg(k)) {
    t = DType::kInt64;
  } else if (k == NpReduceKind::kAll || k == NpReduceKind::kAny) {
    t = DType::kBool;
  } else if (NpRedIsValue(k)) {
    return NpValueInferType(p, k, in, out);
  } else {
    t = p.IsNone("dtype") ? (*in)[0] : p.GetDType("dtype");
  }
  if (t == DType::kUnknown) return false;
  AssignType(out, 0, t, p.op()->name + ": output");
  return (*in)[0] != DType::kUnknown;
}

// _np_sum ... _np_min on the CPU: the input converted to the output dtype
// first where they differ (Note [NumPy sums and their dtypes]), each output
// element's accumulator, then one converting store honouring req.
void NpValueCompute(const Params& p, NpReduceKind k, const TensorView& in, OpReq req, const TensorView& out) {
  std::unique_ptr<char[]> converted;
  TensorView x = in;
  if (in.dtype != out.dtype) {
    converted.reset(new char[static_cast<size_t>(in.Size()) * DTypeSize(out.dtype) + 1]);
    x = TensorView{converted.get(), out.dtype, in.shape};
    tensor_cpu::ConvertCopy(in, OpReq::kWriteTo, x);
  }
  std::vector<bool> red;
  tensor::NpReduceShape(p, in.shape, &red);
  const tensor::NpReduceGeom g = tensor::NpReduceGeomOf(in.shape, red, p.op()->name);
  const int64_t n = g.out_size;
  WEFT_DTYPE_SWITCH(x.dtype, T, {
    const T* xp = x.ptr<T>();
    if (k == NpReduceKind::kMean) {
      std::vector<double> r(static_cast<size_t>(n));
      nnm::ForEachIndex(n, g.red_size + 1, [&](int64_t o) { r[static_cast<size_t>(o)] = tensor::NpMeanAt<T>(g, o, xp); });
      tensor_cpu::ConvertCopy(TensorView{r.data(), DType::kFloat64, out.shape}, req, out);
    } else {
      using A = tensor::NpAccT<T>;
      std::vector<A> r(static_cast<size_t>(n));
      nnm::ForEachIndex(n, g.red_size + 1, [&](int64_t o) {
        r[static_cast<size_t>(o)] = k == NpReduceKind::kSum    ? tensor::NpSumProdAt<T>(g, o, true, xp)
                                    : k == NpReduceKind::kProd ? tensor::NpSumProdAt<T>(g, o, false, xp)
                                                               : tensor::NpExtremeAt<T>(g, o, k == NpReduceKind::kMax, xp);
      });
      const DType acc = std::is_integral<T>::value ? DType::kInt64 : DType::kFloat64;
      tensor_cpu::ConvertCopy(TensorView{r.data(), acc, out.shape}, req, out);
    }
  });
}

void NpRedCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                  const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const NpReduceKind k = NpReduceKindOf(p.op()->name);
  if (NpRedIsValue(k)) return NpValueCompute(p, k, in[0], req[0], out[0]);
  std::vector<bool> red;
  tensor::NpReduceShape(p, in[0].shape, &red);
  const tensor::NpReduceGeom g = tensor::NpReduceGeomOf(in[0].shape, red, p.op()->name);
  const int64_t n = g.out_size;
  // the results in their own type, then one converting store honouring req
  std::unique_ptr<int64_t[]> idx(NpRedIsArg(k) ? new int64_t[static_cast<size_t>(n)] : nullptr);
  const bool logic = k == NpReduceKind::kAll || k == NpReduceKind::kAny;
  std::unique_ptr<bool[]> flag(logic ? new bool[static_cast<size_t>(n)] : nullptr);
  std::unique_ptr<double[]> mom(idx || flag ? nullptr : new double[static_cast<size_t>(n)]);
  const int64_t ddof = mom ? p.GetInt("ddof") : 0;
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    const T* x = in[0].ptr<T>();
    nnm::ForEachIndex(n, g.red_size * 2 + 1, [&](int64_t o) {
      switch (k) {
        case NpReduceKind::kArgmax: idx[o] = tensor::NpArgAt<T>(g, o, true, x); break;
        case NpReduceKind::kArgmin: idx[o] = tensor::NpArgAt<T>(g, o, false, x); break;
        case NpReduceKind::kAll: flag[o] = tensor::NpAllAnyAt<T>(g, o, true, x); break;
        case NpReduceKind::kAny: flag[o] = tensor::NpAllAnyAt<T>(g, o, false, x); break;
        case NpReduceKind::kStd: mom[o] = tensor::NpMomentAt<T>(g, o, true, ddof, x); break;
        case NpReduceKind::kVar: mom[o] = tensor::NpMomentAt<T>(g, o, false, ddof, x); break;
        default: break;  // the value reductions: NpValueCompute
      }
    });
  });
  const TensorView res = idx ? TensorView{idx.get(), DType::kInt64, out[0].shape}
                             : flag ? TensorView{flag.get(), DType::kBool, out[0].shape}
                                    : TensorView{mom.get(), DType::kFloat64, out[0].shape};
  tensor_cpu::ConvertCopy(res, req[0], out[0]);
}

OpDef& NpRedDeclare(const char* name, const std::string& doc, const char* input) {
  WEFT_REGISTER_OP(op, name);
  op.describe(doc + "\n\nA reduction over every axis (axis=None) gives a 0-d array, as in MXNet's NumPy mode." +
              (NpRedIsValue(NpReduceKindOf(name)) ? "" : " The gradient is zero, as MXNet 1.9.1 registers it."))
      .add_input(input)
      .set_infer_shape(NpRedInferShape)
      .set_infer_type(NpRedInferType)
      .set_compute_cpu(NpRedCompute)
      .set_compute_gpu(WEFT_GPU(cuda::NpReduceGpu))
      .set_fusion(FusionClass::kOpaque)
      .set_gradient(ZeroGradients);
  return op;
}

OpDef& NpRedArgOp(const char* name, const char* what) {
  return NpRedDeclare(name,
                      std::string("Returns the indices of the ") + what +
                          " values along an axis as int64 (NumPy's argmax/argmin: the first one on ties, a NaN "
                          "counts as the extreme; axis=None indexes the flattened array).",
                      "data")
      .add_optional_param("axis", ParamType::kInt, "The axis to search along. None searches the flattened input.")
      .add_param("keepdims", ParamType::kBool, "False",
                 "If True, the searched axis is kept in the result as a dimension of size one.");
}

OpDef& NpRedLogicOp(const char* name, const char* what) {
  return NpRedDeclare(name,
                      std::string("Tests whether ") + what +
                          " element along the given axes is non-zero (a bool result; NaN counts as non-zero).",
                      "data")
      .add_optional_param("axis", ParamType::kShape,
                          "The axis or axes to reduce; None reduces every axis, () none.")
      .add_param("keepdims", ParamType::kBool, "False",
                 "If True, the reduced axes are kept in the result as dimensions of size one.");
}

OpDef& NpRedMomentOp(const char* name, const char* what) {
  return NpRedDeclare(name,
                      std::string("Computes the ") + what +
                          " along the given axes with divisor N - ddof, in float64 and rounded once to the "
                          "output dtype (integer outputs are truncated, as in MXNet).",
                      "a")
      .add_optional_param("axis", ParamType::kShape,
                          "The axis or axes to reduce; None reduces every axis, () none.")
      .add_optional_param("dtype", ParamType::kDType, "The output dtype. None: the input's dtype.")
      .add_param("ddof", ParamType::kInt, "0", "Delta degrees of freedom: the divisor is N - ddof.")
      .add_param("keepdims", ParamType::kBool, "False",
                 "If True, the reduced axes are kept in the result as dimensions of size one.");
}

// The gradient of _np_sum ... _np_min (Note [NumPy sums and their dtypes]).
std::vector<NodeEntry> NpValueGradient(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const NpReduceKind k = NpReduceKindOf(n->op->name);
  const NodeEntry x = b.in(0);
  const NodeEntry g = b("_backward_Cast", {og[0], x});  // bool sums are int64, integer means float32
  const Params& p = n->params;
  if (!p.IsNone("axis") && p.GetTuple("axis").empty()) return {g};  // axis=(): every element is its own result
  std::map<std::string, std::string> attrs = {{"keepdims", p.GetBool("keepdims") ? "True" : "False"}};
  if (!p.IsNone("axis")) attrs["axis"] = tensor::TupleString(p.GetTuple("axis"));
  auto back = [&](const NodeEntry& e) { return b("_backward_sum", {e, x}, attrs); };
  switch (k) {
    case NpReduceKind::kSum: return {back(g)};
    case NpReduceKind::kMean: return {b("_backward_mean", {g, x}, attrs)};
    case NpReduceKind::kMax:
    case NpReduceKind::kMin: return {b.Mul(back(g), b("_equal", {x, back(b.out())}))};
    case NpReduceKind::kProd: return {b.Mul(back(g), b.Div(back(b("_backward_Cast", {b.out(), x})), x))};
    default: break;
  }
  WEFT_THROW(kInternal) << "no gradient for " << n->op->name;
}

OpDef& NpRedValueOp(const char* name, const char* what, bool has_dtype) {
  OpDef& op = NpRedDeclare(name,
                           std::string("Computes the ") + what +
                               " of array elements over the given axes (MXNet's NumPy-mode operator; Note [NumPy "
                               "sums and their dtypes] in core/op/reduce/np_reduce.cc gives the output dtype).",
                           "a");
  op.add_optional_param("axis", ParamType::kShape, "The axis or axes to reduce; None reduces every axis, () none.");
  if (has_dtype) op.add_optional_param("dtype", ParamType::kDType, "The dtype to compute and return in.");
  op.add_param("keepdims", ParamType::kBool, "False",
               "If True, the reduced axes are kept in the result as dimensions of size one.")
      .add_optional_param("initial", ParamType::kFloat, "Not supported (MXNet 1.9.1 refuses it too): None only.")
      .set_gradient(NpValueGradient);
  return op;
}

[[maybe_unused]] OpDef& reg_np_sum = NpRedValueOp("_np_sum", "sum", true);
[[maybe_unused]] OpDef& reg_np_mean = NpRedValueOp("_npi_mean", "arithmetic mean", true);
[[maybe_unused]] OpDef& reg_np_prod = NpRedValueOp("_np_prod", "product", true).add_alias("_np_product");
[[maybe_unused]] OpDef& reg_np_max = NpRedValueOp("_np_max", "maximum (a NaN propagates)", false).add_alias("_np_amax");
[[maybe_unused]] OpDef& reg_np_min = NpRedValueOp("_np_min", "minimum (a NaN propagates)", false).add_alias("_np_amin");
[[maybe_unused]] OpDef& reg_np_argmax = NpRedArgOp("_npi_argmax", "maximum");
[[maybe_unused]] OpDef& reg_np_argmin = NpRedArgOp("_npi_argmin", "minimum");
[[maybe_unused]] OpDef& reg_np_all = NpRedLogicOp("_np_all", "every");
[[maybe_unused]] OpDef& reg_np_any = NpRedLogicOp("_np_any", "some").add_alias("_np_sometrue");
[[maybe_unused]] OpDef& reg_np_std = NpRedMomentOp("_npi_std", "standard deviation");
[[maybe_unused]] OpDef& reg_np_var = NpRedMomentOp("_npi_var", "variance");

}  // namespace
}  // namespace weft
