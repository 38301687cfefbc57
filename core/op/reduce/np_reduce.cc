// MXNet 1.9.1's NumPy-mode reductions whose results no legacy reduction gives
// (issue 37: declared under MXNet's registered names, so graphs MXNet wrote in
// NumPy mode load): _npi_argmax/_npi_argmin (int64 indices), _np_all/_np_any
// (bool; `_np_sometrue` is MXNet's alias of _np_any) and _npi_std/_npi_var
// (ddof, an output dtype). A full reduction gives a 0-d array, as in MXNet's
// NumPy mode (the legacy ops give (1,)). MXNet gives all of them zero gradients
// (MakeZeroGradNodes), and so does Weft. One loop per output element runs the
// rules of np_reduce_rules.h on either device (Note [NumPy reductions as one
// loop per output]); GPU kernels in np_reduce.cu.
#include <memory>
#include <string>
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

bool NpRedInferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& a = (*in)[0];
  if (!a.known()) return false;
  std::vector<bool> red;
  const Shape o = tensor::NpReduceShape(p, a, &red);
  if (NpRedIsArg(NpReduceKindOf(p.op()->name))) {
    WEFT_CHECK(a.Size() > 0, kShape) << p.op()->name << ": attempt to get " << p.op()->name.substr(5)
                                     << " of an empty sequence (input 'data' of shape " << a.ToString() << ")";
  }
  AssignShape(out, 0, o, p.op()->name + ": output");
  return true;
}

bool NpRedInferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const NpReduceKind k = NpReduceKindOf(p.op()->name);
  DType t = DType::kUnknown;
  if (NpRedIsArg(k)) {
    t = DType::kInt64;
  } else if (k == NpReduceKind::kAll || k == NpReduceKind::kAny) {
    t = DType::kBool;
  } else {
    t = p.IsNone("dtype") ? (*in)[0] : p.GetDType("dtype");
  }
  if (t == DType::kUnknown) return false;
  AssignType(out, 0, t, p.op()->name + ": output");
  return (*in)[0] != DType::kUnknown;
}

void NpRedCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                  const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const NpReduceKind k = NpReduceKindOf(p.op()->name);
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
  op.describe(doc + "\n\nA reduction over every axis (axis=None) gives a 0-d array, as in MXNet's NumPy mode. "
                    "The gradient is zero, as MXNet 1.9.1 registers it.")
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

[[maybe_unused]] OpDef& reg_np_argmax = NpRedArgOp("_npi_argmax", "maximum");
[[maybe_unused]] OpDef& reg_np_argmin = NpRedArgOp("_npi_argmin", "minimum");
[[maybe_unused]] OpDef& reg_np_all = NpRedLogicOp("_np_all", "every");
[[maybe_unused]] OpDef& reg_np_any = NpRedLogicOp("_np_any", "some").add_alias("_np_sometrue");
[[maybe_unused]] OpDef& reg_np_std = NpRedMomentOp("_npi_std", "standard deviation");
[[maybe_unused]] OpDef& reg_np_var = NpRedMomentOp("_npi_var", "variance");

}  // namespace
}  // namespace weft
