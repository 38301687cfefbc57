// Index-based gathers and scatters: take, pick, one_hot, gather_nd and
// _scatter_set_nd (the op behind advanced-index assignment in the Python
// binding, called with out=lhs). Kernels: core/op/index/indexing_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/index/indexing_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/index/indexing_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using tensor_cpu::IndexMode;

IndexMode ModeOf(const Params& p) {
  const std::string& m = p.GetString("mode");
  return m == "wrap" ? IndexMode::kWrap : (m == "raise" ? IndexMode::kRaise : IndexMode::kClip);
}

bool DataTypeToOutput(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  tensor::TypeFromInput(p, in, out, 0);
  return (*in)[0] != DType::kUnknown && (*in)[1] != DType::kUnknown;
}

// ---- take ----

int TakeAxis(const Params& p, const Shape& a) {
  tensor::CheckMinNDim(a, 1, "take", "a");
  return tensor::NormalizeAxis(p.GetInt("axis"), a.ndim(), "take", "a");
}

WEFT_REGISTER_OP("take").set_compute_gpu(WEFT_GPU(cuda::TakeGpu)).add_method("take")
    .describe("Takes elements of `a` along an axis at the given indices (like numpy.take).\n\n"
              "The output shape is a.shape[:axis] + indices.shape + a.shape[axis+1:]. Indices may "
              "have any dtype (floats are truncated). mode: 'clip' clamps out-of-range indices, "
              "'wrap' wraps them around, 'raise' reports them as an error (negative indices then "
              "count from the end).")
    .add_input("a")
    .add_input("indices")
    .add_param("axis", ParamType::kInt, "0", "The axis of `a` to take from (negative counts from the end).")
    .add_enum_param("mode", {"clip", "wrap", "raise"}, "clip", "How out-of-range indices are handled.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      const Shape& a = (*in)[0];
      const int axis = TakeAxis(p, a);
      WEFT_CHECK(a[axis] > 0 || (*in)[1].Size() == 0, kShape)
          << "take: cannot take from axis " << axis << " of size 0 of input 'a' with shape " << a.ToString();
      Shape o(a.dims().begin(), a.dims().begin() + axis);
      for (int64_t d : (*in)[1].dims()) o.push_back(d);
      for (int i = axis + 1; i < a.ndim(); ++i) o.push_back(a[i]);
      AssignShape(out, 0, o, "take: output");
      return true;
    })
    .set_infer_type(DataTypeToOutput)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::TakeCPU(in[0], in[1], TakeAxis(p, in[0].shape), ModeOf(p), req[0], out[0]);
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // indices take no gradient
      return {OutputOf(b.NodeWithAttrs("_backward_take", {og[0], b.in(1), b.in(0)})), NodeEntry{}};
    });

// ---- pick ----

// Returns the normalized axis; *out gets MXNet's ReduceAxisShapeImpl shape.
int PickAxis(const Params& p, const Shape& d, Shape* out) {
  WEFT_CHECK(!p.IsNone("axis"), kInvalidArgument) << "pick: axis=None is not supported; give an axis";
  tensor::CheckMinNDim(d, 1, "pick", "data");
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), "pick", "data");
  WEFT_CHECK(d[axis] > 0 || d.ProdRange(0, axis) * d.ProdRange(axis + 1, d.ndim()) == 0, kShape)
      << "pick: cannot pick from axis " << axis << " of size 0 of input 'data' with shape " << d.ToString();
  const bool keep = p.GetBool("keepdims");
  Shape o;
  for (int i = 0; i < d.ndim(); ++i) {
    if (i != axis) o.push_back(d[i]);
    else if (keep) o.push_back(1);
  }
  if (o.ndim() == 0) o = Shape{1};
  *out = o;
  return axis;
}

WEFT_REGISTER_OP("pick").set_compute_gpu(WEFT_GPU(cuda::PickGpu)).add_method("pick")
    .add_alias("choose_element_0index")  // as MXNet 1.9.1 (legacy name, issue 17)
    .describe("Picks one element per position along an axis: out[i, k] = data[i, index[i, k], k].\n\n"
              "index has the shape of the output: data's shape without `axis` (or with it as 1 when "
              "keepdims=True). mode 'clip' clamps out-of-range indices, 'wrap' wraps them around.")
    .add_input("data")
    .add_input("index")
    .add_param("axis", ParamType::kInt, "-1", "The axis to pick along (negative counts from the end).")
    .add_param("keepdims", ParamType::kBool, "False", "If True, keep the picked axis as a dimension of size one.")
    .add_enum_param("mode", {"clip", "wrap"}, "clip", "How out-of-range indices are handled.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      Shape o;
      PickAxis(p, (*in)[0], &o);
      AssignShape(out, 0, o, "pick: output");
      if ((*in)[1].known()) {
        // An index without the kept unit axis is accepted too (same elements).
        bool same_size = (*in)[1].Size() == o.Size();
        WEFT_CHECK((*in)[1] == o || same_size, kShape)
            << "pick: input 'index' has shape " << (*in)[1].ToString() << ", expected " << o.ToString();
      } else {
        (*in)[1] = o;
      }
      return true;
    })
    .set_infer_type(DataTypeToOutput)
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      Shape o;
      const int axis = PickAxis(p, in[0].shape, &o);
      tensor_cpu::PickCPU(in[0], in[1], axis, ModeOf(p), req[0], out[0]);
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // the index takes no gradient
      return {OutputOf(b.NodeWithAttrs("_backward_pick", {og[0], b.in(1), b.in(0)})), NodeEntry{}};
    });

// ---- one_hot ----

WEFT_REGISTER_OP("one_hot").set_compute_gpu(WEFT_GPU(cuda::OneHotGpu)).add_method("one_hot")
    .describe("Returns a one-hot array: shape indices.shape + (depth,), with on_value at each index "
              "and off_value elsewhere. Indices outside [0, depth) give an all-off row.")
    .add_input("indices")
    .add_required_param("depth", ParamType::kInt, "Length of the one-hot dimension.")
    .add_param("on_value", ParamType::kFloat, "1", "The value at the index.")
    .add_param("off_value", ParamType::kFloat, "0", "The value elsewhere.")
    .add_param("dtype", ParamType::kDType, "float32", "The output dtype.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      const int64_t depth = p.GetInt("depth");
      WEFT_CHECK(depth >= 0, kInvalidArgument) << "one_hot: parameter 'depth' must be >= 0, got " << depth;
      if (!(*in)[0].known()) return false;
      Shape o = (*in)[0];
      o.push_back(depth);
      AssignShape(out, 0, o, "one_hot: output");
      return true;
    })
    .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
      AssignType(out, 0, p.GetDType("dtype"), "one_hot: output (dtype)");
      return (*in)[0] != DType::kUnknown;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::OneHotCPU(in[0], p.GetInt("depth"), p.GetFloat("on_value"), p.GetFloat("off_value"), req[0],
                            out[0]);
    })
    .set_gradient(ZeroGradients);  // MXNet's MakeZeroGradNodes

// ---- gather_nd / _scatter_set_nd ----

// Shape of the gathered values: indices.shape[1:] + data.shape[M:], with M =
// indices.shape[0]; (1,) when that is empty (legacy mode has no 0-d arrays).
Shape GatherShape(const char* op, const Shape& data, const Shape& idx, const char* data_name) {
  tensor::CheckMinNDim(idx, 1, op, "indices");
  const int64_t m = idx[0];
  WEFT_CHECK(m >= 1 && m <= data.ndim(), kShape)
      << op << ": indices.shape[0] = " << m << " must be between 1 and the " << data.ndim() << " dims of input '"
      << data_name << "' with shape " << data.ToString() << " (indices shape " << idx.ToString() << ")";
  Shape o(idx.dims().begin() + 1, idx.dims().end());
  for (int i = static_cast<int>(m); i < data.ndim(); ++i) o.push_back(data[i]);
  if (o.ndim() == 0) o = Shape{1};
  return o;
}

WEFT_REGISTER_OP("gather_nd").set_compute_gpu(WEFT_GPU(cuda::GatherNdGpu))
    .describe("Gathers slices of data at N-dimensional indices: indices of shape (M, Y...) give an "
              "output of shape (Y...) + data.shape[M:], output[y] = data[indices[0][y], ..., "
              "indices[M-1][y]]. Negative indices count from the end; out-of-range ones are errors.")
    .add_input("data")
    .add_input("indices")
    .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known() || !(*in)[1].known()) return false;
      AssignShape(out, 0, GatherShape("gather_nd", (*in)[0], (*in)[1], "data"), "gather_nd: output");
      return true;
    })
    .set_infer_type(DataTypeToOutput)
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::GatherNDCPU(in[0], in[1], req[0], out[0]);
    })
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // the indices take no gradient
      return {b("_backward_gather_nd", {og[0], b.in(1), b.in(0)}), NodeEntry{}};
    });

WEFT_REGISTER_OP("_scatter_set_nd").set_compute_gpu(WEFT_GPU(cuda::ScatterSetNdGpu))
    .describe("Returns lhs with the slices at N-dimensional indices replaced by rhs (the op behind "
              "`a[idx_arrays] = value`; called with out=lhs, so it runs in place). indices of shape "
              "(M, Y...) need rhs of shape (Y...) + shape[M:]. Elements not indexed keep lhs's values.")
    .add_input("lhs")
    .add_input("rhs")
    .add_input("indices")
    .add_optional_param("shape", ParamType::kShape, "Shape of the output (= lhs's shape); None: lhs's shape.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!p.IsNone("shape")) {
        tensor::CheckNoNone(p.GetTuple("shape"), "_scatter_set_nd", "shape");
        AssignShape(out, 0, Shape(p.GetTuple("shape")), "_scatter_set_nd: output (shape)");
      }
      if (!(*in)[0].known() && (*out)[0].known()) (*in)[0] = (*out)[0];
      if (!(*in)[0].known() || !(*in)[2].known()) return false;
      AssignShape(out, 0, (*in)[0], "_scatter_set_nd: input 'lhs'");
      AssignShape(in, 1, GatherShape("_scatter_set_nd", (*in)[0], (*in)[2], "lhs"), "_scatter_set_nd: input 'rhs'");
      return true;
    })
    .set_infer_type([](const Params&, std::vector<DType>* in, std::vector<DType>* out) {
      DType t = (*in)[0] != DType::kUnknown ? (*in)[0] : ((*in)[1] != DType::kUnknown ? (*in)[1] : (*out)[0]);
      if (t == DType::kUnknown) return false;
      AssignType(in, 0, t, "_scatter_set_nd: input 'lhs'");
      AssignType(in, 1, t, "_scatter_set_nd: input 'rhs'");
      AssignType(out, 0, t, "_scatter_set_nd: output");
      return (*in)[2] != DType::kUnknown;
    })
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      tensor_cpu::ScatterSetNDCPU(in[0], in[1], in[2], req[0], out[0]);
    })
    .add_inplace(0, 0);

}  // namespace
}  // namespace weft
