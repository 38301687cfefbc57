// MXNet 1.9.1's NumPy where under its registered names: _npi_where(condition,
// x, y), _npi_where_lscalar(condition, x, scalar) (where(condition, scalar, x)),
// _npi_where_rscalar(condition, y, scalar) (where(condition, y, scalar)) and
// _npi_where_scalar2(condition, x, y scalars), broadcasting their operands as NumPy (Note [NumPy where broadcasts three operands],
// np_where_rules.h). Gradients are built from the same operators (where(c, g, 0)
// summed back to each operand's shape); the condition's is zeros. GPU kernels:
// np_where.cu.
#include <algorithm>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/np_compare_rules.h"
#include "core/op/elemwise/np_where_gpu.h"
#include "core/op/elemwise/np_where_rules.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

using tensor::WherePlan;

// The output shape: every input broadcast together (NumPy's rule; a 0 dim
// broadcasts with 1). False while an input is unknown.
bool WhereShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const OpDef& op = *p.op();
  // _npi_where_scalar2: the condition's shape, known from either side
  if (in->size() == 1) return SameShapeInfer(op, p, in, out);
  int nd = 0;
  for (const Shape& s : *in) {
    if (!s.known()) return false;
    nd = std::max(nd, s.ndim());
  }
  Shape o(std::vector<int64_t>(static_cast<size_t>(nd), 1));
  for (const Shape& s : *in) {
    for (int i = 0; i < s.ndim(); ++i) {
      const int j = i + nd - s.ndim();
      WEFT_CHECK(s[i] == o[j] || s[i] == 1 || o[j] == 1, kShape)
          << op.name << ": operands could not be broadcast together with shapes " << (*in)[0].ToString()
          << (in->size() > 1 ? " " + (*in)[1].ToString() : "") << (in->size() > 2 ? " " + (*in)[2].ToString() : "");
      if (o[j] == 1) o[j] = s[i];
    }
  }
  AssignShape(out, 0, o, op.name + ": output");
  return true;
}

// x and y (inputs 1 and 2, where present) and the output share one dtype; the
// condition's is free. _npi_where_scalar2 writes float32.
bool WhereType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  if (in->size() == 1) {
    AssignType(out, 0, DType::kFloat32, op.name + ": output");
    return (*in)[0] != DType::kUnknown;
  }
  DType t = (*out)[0];
  for (size_t i = 1; i < in->size(); ++i) {
    const DType d = (*in)[i];
    if (d == DType::kUnknown) continue;
    WEFT_CHECK(t == DType::kUnknown || t == d, kDType)
        << op.name << ": x and y have different dtypes, " << DTypeName(t) << " and " << DTypeName(d)
        << " (MXNet takes one dtype; promote first)";
    t = d;
  }
  if (t == DType::kUnknown) return false;
  for (size_t i = 1; i < in->size(); ++i) AssignType(in, i, t, op.name + ": input " + std::to_string(i));
  AssignType(out, 0, t, op.name + ": output");
  return (*in)[0] != DType::kUnknown;
}

}  // namespace

namespace tensor {

WherePlan MakeWherePlan(const char* op, const Shape& cond, const Shape* x, const Shape* y, const Shape& out) {
  WherePlan p;
  const int nd = out.ndim();
  WEFT_CHECK(nd <= kWhereMaxDims, kShape) << op << ": at most " << kWhereMaxDims << " dimensions, got " << nd;
  p.nd = nd;
  auto strides = [&](const Shape& s, int64_t* st) {
    int64_t acc = 1;
    for (int i = s.ndim() - 1; i >= 0; --i) {
      st[i + nd - s.ndim()] = s[i] == 1 ? 0 : acc;
      acc *= s[i];
    }
  };
  for (int d = 0; d < nd; ++d) p.dims[d] = out[d];
  strides(cond, p.cs);
  if (x) strides(*x, p.xs);
  if (y) strides(*y, p.ys);
  return p;
}

WherePlan MakeMaskAssignPlan(const char* op, const Shape& data, const Shape& mask, int64_t start_axis) {
  const int nd = data.ndim();
  WEFT_CHECK(nd <= kWhereMaxDims, kShape) << op << ": at most " << kWhereMaxDims << " dimensions, got " << nd;
  WEFT_CHECK(start_axis >= 0 && start_axis + mask.ndim() <= nd, kShape)
      << op << ": attribute 'start_axis' = " << start_axis << " does not place a mask of shape " << mask.ToString()
      << " inside data of shape " << data.ToString();
  WherePlan p;
  p.nd = nd;
  int64_t acc = 1;
  for (int i = nd - 1; i >= 0; --i) {
    p.dims[i] = data[i];
    p.xs[i] = acc;
    acc *= data[i];
  }
  acc = 1;
  for (int i = mask.ndim() - 1; i >= 0; --i) {
    const int d = static_cast<int>(start_axis) + i;
    WEFT_CHECK(mask[i] == data[d], kShape)
        << op << ": boolean index did not match indexed array along dimension " << d << "; dimension is "
        << data[d] << " but corresponding boolean dimension is " << mask[i];
    p.cs[d] = acc;
    acc *= mask[i];
  }
  return p;
}

}  // namespace tensor

namespace {

bool MaskAssignShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  if (!(*in)[0].known() || !(*in)[1].known()) return false;
  tensor::MakeMaskAssignPlan(p.op()->name.c_str(), (*in)[0], (*in)[1], p.GetInt("start_axis"));  // checks
  AssignShape(out, 0, (*in)[0], p.op()->name + ": output");
  return true;
}

bool MaskAssignType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const OpDef& op = *p.op();
  DType t = (*in)[0] != DType::kUnknown ? (*in)[0] : (*out)[0];
  if (t == DType::kUnknown) return false;
  AssignType(in, 0, t, op.name + ": data");
  AssignType(out, 0, t, op.name + ": output");
  return (*in)[1] != DType::kUnknown;
}

void MaskAssignScalarCpu(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const WherePlan plan =
      tensor::MakeMaskAssignPlan(p.op()->name.c_str(), in[0].shape, in[1].shape, p.GetInt("start_axis"));
  const void* m = in[1].data;
  const int mt = static_cast<int>(in[1].dtype);
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(out[0].dtype, T, {
    const T* d = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    const T v = tensor::ScalarAsDType<T>(p.GetFloat("value"));
    nnm::ForEachIndex(out[0].Size(), 1,
                      [&](int64_t i) { nnm::Put(o, i, r, tensor::MaskAssignAt(plan, m, mt, d, v, i)); });
  });
}

using tensor::WhereForm;

void WhereCpu(WhereForm form, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const char* op = p.op()->name.c_str();
  const Shape* t1 = in.size() > 1 ? &in[1].shape : nullptr;
  const Shape* t2 = in.size() > 2 ? &in[2].shape : nullptr;
  const WherePlan plan = tensor::MakeWherePlan(op, in[0].shape, t1, t2, out[0].shape);
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(out[0].dtype, T, {
    T* o = out[0].ptr<T>();
    tensor::WhereOperands<T> w;
    w.form = form;
    w.cond = in[0].data;
    w.cond_dtype = static_cast<int>(in[0].dtype);
    w.x = in.size() > 1 ? in[1].ptr<T>() : nullptr;
    w.y = in.size() > 2 ? in[2].ptr<T>() : nullptr;
    // the scalar operands in T (MXNet's DType(scalar))
    if (form == WhereForm::kLeftScalar || form == WhereForm::kRightScalar)
      w.scalar = tensor::ScalarAsDType<T>(p.GetFloat("scalar"));
    if (form == WhereForm::kScalars) {
      w.sx = tensor::ScalarAsDType<T>(p.GetFloat("x"));
      w.sy = tensor::ScalarAsDType<T>(p.GetFloat("y"));
    }
    nnm::ForEachIndex(out[0].Size(), 1, [&](int64_t i) { nnm::Put(o, i, r, tensor::WhereAt(plan, w, i)); });
  });
}

// where(c, g, 0) (the part of g where c holds) or where(c, 0, g), summed back
// to the shape of operand `like`.
NodeEntry MaskedGrad(GradBuilder& b, const NodeEntry& c, const NodeEntry& g, bool where_true, const NodeEntry& like) {
  const NodeEntry part =
      b(where_true ? "_npi_where_rscalar" : "_npi_where_lscalar", {c, g}, {{"scalar", "0"}});
  return SumToShapeOf(b, part, like);
}

std::vector<NodeEntry> WhereGradient(WhereForm form, const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  const NodeEntry c = b.in(0);
  std::vector<NodeEntry> grads = {b.Zeros(c)};
  if (form == WhereForm::kTensors) {
    grads.push_back(MaskedGrad(b, c, og[0], true, b.in(1)));
    grads.push_back(MaskedGrad(b, c, og[0], false, b.in(2)));
  } else if (form == WhereForm::kLeftScalar) {  // where(c, scalar, x)
    grads.push_back(MaskedGrad(b, c, og[0], false, b.in(1)));
  } else if (form == WhereForm::kRightScalar) {  // where(c, y, scalar)
    grads.push_back(MaskedGrad(b, c, og[0], true, b.in(1)));
  }
  return grads;
}

struct WhereOpEntry {
  const char* name;
  WhereForm form;
  const char* doc;
  FCompute gpu;
};

bool RegisterNumpyWhereOps() {
  const WhereOpEntry entries[] = {
      {"_npi_where", WhereForm::kTensors,
       "NumPy's where(condition, x, y): x where condition is nonzero, else y, the three broadcast together; "
       "x and y of one dtype, which the output takes (Note [NumPy where broadcasts three operands]).",
       WEFT_GPU(cuda::NpWhereGpu)},
      {"_npi_where_lscalar", WhereForm::kLeftScalar,
       "NumPy's where(condition, scalar, x): the scalar (in x's dtype) where condition is nonzero, else x, "
       "broadcast together.",
       WEFT_GPU(cuda::NpWhereLScalarGpu)},
      {"_npi_where_rscalar", WhereForm::kRightScalar,
       "NumPy's where(condition, y, scalar): y where condition is nonzero, else the scalar (in y's dtype), "
       "broadcast together.",
       WEFT_GPU(cuda::NpWhereRScalarGpu)},
      {"_npi_where_scalar2", WhereForm::kScalars,
       "NumPy's where(condition, x, y) of two scalars, as float32 in condition's shape.",
       WEFT_GPU(cuda::NpWhereScalar2Gpu)},
  };
  for (const WhereOpEntry& e : entries) {
    const WhereForm form = e.form;
    WEFT_REGISTER_OP(def, e.name).describe(e.doc).add_input("condition");
    if (form == WhereForm::kTensors) {
      def.add_input("x").add_input("y");
    } else if (form == WhereForm::kLeftScalar) {  // MXNet's input names (Note [NumPy where ...])
      def.add_input("x").add_param("scalar", ParamType::kFloat, "0", "The scalar taken where condition holds");
    } else if (form == WhereForm::kRightScalar) {
      def.add_input("y").add_param("scalar", ParamType::kFloat, "0", "The scalar taken where condition fails");
    } else {
      def.add_param("x", ParamType::kFloat, "0", "The value where condition holds")
          .add_param("y", ParamType::kFloat, "0", "The value where condition fails");
    }
    def.set_infer_shape(WhereShape)
        .set_infer_type(WhereType)
        .set_compute_cpu([form](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          WhereCpu(form, p, in, req, out);
        })
        .set_compute_gpu(e.gpu)
        .set_gradient([form](const NodePtr& n, const std::vector<NodeEntry>& og) {
          return WhereGradient(form, n, og);
        });
  }
  WEFT_REGISTER_OP(mask_assign, "_npi_boolean_mask_assign_scalar")
      .describe("NumPy's `data[mask] = value` (MXNet's boolean_mask_assign_scalar): data with the elements "
                "where `mask`, laid along data's dims from `start_axis` on, is nonzero set to `value` (in data's "
                "dtype). The gradient passes to data's unmasked elements (MXNet 1.9.1 gives zeros: Note [NumPy where "
                "broadcasts three operands]).")
      .add_input("data")
      .add_input("mask")
      .add_param("value", ParamType::kFloat, "0", "value to be assigned to masked positions")
      .add_param("start_axis", ParamType::kInt, "0", "starting axis of boolean mask")
      .add_inplace(0, 0)
      .set_infer_shape(MaskAssignShape)
      .set_infer_type(MaskAssignType)
      .set_compute_cpu(MaskAssignScalarCpu)
      .set_compute_gpu(WEFT_GPU(cuda::NpBooleanMaskAssignScalarGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);  // g where data passes through, 0 where the value was written
        return std::vector<NodeEntry>{b(n->op->name, {og[0], b.in(1)}, {{"value", "0"}, {"start_axis",
                                          n->attrs.count("start_axis") ? n->attrs.at("start_axis") : "0"}}),
                                      b.Zeros(b.in(1))};
      });
  return true;
}

[[maybe_unused]] const bool kNumpyWhereRegistered = RegisterNumpyWhereOps();

}  // namespace
}  // namespace weft
