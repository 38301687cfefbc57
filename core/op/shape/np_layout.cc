// MXNet 1.9.1's NumPy-mode layout operators that no legacy operator computes
// (issue 37: declared under MXNet's registered names, so graphs MXNet wrote in
// NumPy mode load): _np_moveaxis, _npi_broadcast_to (NumPy's broadcasting,
// where the legacy broadcast_to needs equal ndims), _np_diagflat and _npi_rot90
// (one strided copy each, Note [Ops that are one strided copy] in
// view_plan.h), _np_roll (np.roll, flattened when axis=None), _npi_tril
// (np.tril over the last two axes; a 1-D input is read as the square matrix
// of its rows, as NumPy broadcasts it) and _np_atleast_{1,2,3}d (copies with
// size-1 axes added). The gradients are the ops themselves or their adjoints:
// moveaxis back, roll by -shift, rot90 by -k, broadcast_to and tril summed
// back to the input's shape, diagflat's diagonal read back, atleast reshaped
// back (MXNet 1.9.1's rot90 and atleast backward are not these adjoints:
// Note [Gradients where MXNet 1.9.1 is wrong] in test_np_nodes_npshape.py).
// Per-element rules in np_layout_rules.h, GPU kernels in np_layout.cu.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/req_hd.h"
#include "core/op/op_util.h"
#include "core/op/shape/np_layout_gpu.h"
#include "core/op/shape/np_layout_rules.h"
#include "core/op/shape/view_plan_cpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor {

std::vector<int> MoveAxisOrder(const Params& p, int ndim) {
  const char* op = "_np_moveaxis";
  const std::vector<int64_t>& src = p.GetTuple("source");
  const std::vector<int64_t>& dst = p.GetTuple("destination");
  CheckNoNone(src, op, "source");
  CheckNoNone(dst, op, "destination");
  WEFT_CHECK(src.size() == dst.size(), kInvalidArgument)
      << op << ": 'source' " << TupleString(src) << " and 'destination' " << TupleString(dst)
      << " must have the same number of elements";
  std::vector<std::pair<int, int>> moves;  // (destination, source)
  std::vector<bool> src_seen(static_cast<size_t>(ndim), false), dst_seen(static_cast<size_t>(ndim), false);
  for (size_t i = 0; i < src.size(); ++i) {
    const int s = NormalizeAxis(src[i], ndim, op, "a", 0, "source");
    const int d = NormalizeAxis(dst[i], ndim, op, "a", 0, "destination");
    WEFT_CHECK(!src_seen[static_cast<size_t>(s)], kInvalidArgument)
        << op << ": repeated axis in 'source' " << TupleString(src);
    WEFT_CHECK(!dst_seen[static_cast<size_t>(d)], kInvalidArgument)
        << op << ": repeated axis in 'destination' " << TupleString(dst);
    src_seen[static_cast<size_t>(s)] = dst_seen[static_cast<size_t>(d)] = true;
    moves.emplace_back(d, s);
  }
  // NumPy's construction: the unmoved axes in order, each moved axis inserted at its destination
  std::vector<int> order;
  for (int a = 0; a < ndim; ++a)
    if (!src_seen[static_cast<size_t>(a)]) order.push_back(a);
  std::sort(moves.begin(), moves.end());
  for (const auto& m : moves) order.insert(order.begin() + m.first, m.second);
  return order;
}

Shape MoveAxisShape(const Params& p, const Shape& in) {
  Shape out;
  for (int a : MoveAxisOrder(p, in.ndim())) out.push_back(in[a]);
  return out;
}

ViewPlan MoveAxisPlan(const Params& p, const Shape& in, const Shape& out) {
  ViewPlan v;
  v.shape = out.dims();
  v.dst_stride = tensor_cpu::ContiguousStrides(out.dims());
  const std::vector<int64_t> in_stride = tensor_cpu::ContiguousStrides(in.dims());
  for (int a : MoveAxisOrder(p, in.ndim())) v.src_stride.push_back(in_stride[static_cast<size_t>(a)]);
  return v;
}

RollGeom RollGeomOf(const Params& p, const Shape& in) {
  const char* op = "_np_roll";
  WEFT_CHECK(!p.IsNone("shift"), kInvalidArgument) << op << ": parameter 'shift' is required";
  const std::vector<int64_t>& shift = p.GetTuple("shift");
  CheckNoNone(shift, op, "shift");
  for (int64_t s : shift)  // the gradient rolls by -shift
    WEFT_CHECK(s != INT64_MIN, kInvalidArgument) << op << ": 'shift' " << TupleString(shift) << " is out of range";
  RollGeom g;
  std::vector<int64_t> total;
  if (p.IsNone("axis")) {
    WEFT_CHECK(shift.size() == 1, kInvalidArgument)
        << op << ": 'shift' " << TupleString(shift) << " must be one integer when axis is None";
    g.ndim = 1;
    g.shape[0] = in.Size();
    total.push_back(shift[0]);
  } else {
    const std::vector<int64_t>& axes = p.GetTuple("axis");
    CheckNoNone(axes, op, "axis");
    WEFT_CHECK(shift.size() == 1 || shift.size() == axes.size(), kInvalidArgument)
        << op << ": 'shift' " << TupleString(shift) << " and 'axis' " << TupleString(axes)
        << " must be a tuple of the same size (or one shift for every axis)";
    WEFT_CHECK(in.ndim() <= kNpLayoutMaxDims, kShape)
        << op << ": input 'data' has " << in.ndim() << " axes, more than the " << kNpLayoutMaxDims << " supported";
    g.ndim = in.ndim();
    total.assign(static_cast<size_t>(in.ndim()), 0);
    for (int d = 0; d < in.ndim(); ++d) g.shape[d] = in[d];
    for (size_t i = 0; i < axes.size(); ++i) {
      const int a = NormalizeAxis(axes[i], in.ndim(), op, "data");
      // a repeated axis adds up, as NumPy
      total[static_cast<size_t>(a)] =
          CheckedAdd(total[static_cast<size_t>(a)], shift[shift.size() == 1 ? 0 : i], "np.roll's shift");
    }
  }
  for (int d = 0; d < g.ndim; ++d) {
    const int64_t n = g.shape[d];
    g.shift[d] = n > 0 ? ((total[static_cast<size_t>(d)] % n) + n) % n : 0;
  }
  return g;
}

TrilGeom TrilGeomOf(const Params& p, const Shape& in) {
  WEFT_CHECK(in.ndim() >= 1, kShape) << "_npi_tril: input 'data' must have at least one axis, got a 0-d array";
  TrilGeom g;
  g.vec = in.ndim() == 1;
  g.rows = g.vec ? in[0] : in[in.ndim() - 2];
  g.cols = in[in.ndim() - 1];
  g.k = p.GetInt("k");
  return g;
}

Shape TrilShape(const Params& p, const Shape& in) {
  const TrilGeom g = TrilGeomOf(p, in);
  return g.vec ? Shape{g.rows, g.cols} : in;
}

Shape NpBroadcastToShape(const Params& p, const Shape& in) {
  const char* op = "_npi_broadcast_to";
  const std::vector<int64_t>& target = p.GetTuple("shape");
  CheckNoNone(target, op, "shape");
  const int lead = static_cast<int>(target.size()) - in.ndim();
  bool ok = lead >= 0;
  for (size_t d = 0; ok && d < target.size(); ++d) {
    ok = target[d] >= 0;
    const int j = static_cast<int>(d) - lead;
    if (ok && j >= 0) ok = in[j] == target[d] || in[j] == 1;
  }
  WEFT_CHECK(ok, kShape) << op << ": input 'array' of shape " << in.ToString() << " cannot be broadcast to shape "
                         << TupleString(target);
  return Shape(target);
}

ViewPlan NpBroadcastToPlan(const Params& p, const Shape& in, const Shape& out) {
  ViewPlan v;
  v.shape = out.dims();
  v.dst_stride = tensor_cpu::ContiguousStrides(out.dims());
  const std::vector<int64_t> in_stride = tensor_cpu::ContiguousStrides(in.dims());
  const int lead = out.ndim() - in.ndim();
  for (int d = 0; d < out.ndim(); ++d) {
    const int j = d - lead;
    v.src_stride.push_back(j < 0 || (in[j] == 1 && out[d] != 1) ? 0 : in_stride[static_cast<size_t>(j)]);
  }
  return v;
}

Shape DiagflatShape(const Params& p, const Shape& in) {
  const int64_t k = p.GetInt("k");
  WEFT_CHECK(k > -(int64_t{1} << 40) && k < (int64_t{1} << 40), kInvalidArgument)
      << "_np_diagflat: parameter 'k' = " << k << " is too large";
  const int64_t m = CheckedAdd(in.Size(), k < 0 ? -k : k, "the side of np.diagflat's output");
  CheckedMul(m, m, "the size of np.diagflat's output");
  return Shape{m, m};
}

ViewPlan DiagflatPlan(const Params& p, const Shape& in, const Shape& out) {
  const int64_t k = p.GetInt("k"), m = out[0];
  ViewPlan v;
  v.shape = {in.Size()};
  v.src_stride = {1};
  v.dst_stride = {m + 1};
  v.dst_off = k >= 0 ? k : -k * m;
  v.zero_fill = true;
  return v;
}

namespace {
std::pair<int, int> Rot90Axes(const Params& p, const Shape& in) {
  const char* op = "_npi_rot90";
  WEFT_CHECK(in.ndim() >= 2, kShape) << op << ": input 'data' must have at least 2 axes, got shape "
                                     << in.ToString();
  std::vector<int64_t> axes = p.IsNone("axes") ? std::vector<int64_t>{0, 1} : p.GetTuple("axes");
  CheckNoNone(axes, op, "axes");
  WEFT_CHECK(axes.size() == 2, kInvalidArgument) << op << ": 'axes' " << TupleString(axes)
                                                 << " must name exactly two axes";
  const int a0 = NormalizeAxis(axes[0], in.ndim(), op, "data", 0, "axes");
  const int a1 = NormalizeAxis(axes[1], in.ndim(), op, "data", 0, "axes");
  WEFT_CHECK(a0 != a1, kInvalidArgument) << op << ": 'axes' " << TupleString(axes) << " must be two distinct axes";
  return {a0, a1};
}

int Rot90Turns(const Params& p) { return static_cast<int>(((p.GetInt("k") % 4) + 4) % 4); }
}  // namespace

Shape Rot90Shape(const Params& p, const Shape& in) {
  const std::pair<int, int> a = Rot90Axes(p, in);
  Shape out = in;
  if (Rot90Turns(p) % 2 == 1) std::swap(out[a.first], out[a.second]);
  return out;
}

ViewPlan Rot90Plan(const Params& p, const Shape& in, const Shape& out) {
  // NumPy's construction: k=1 transposes flip(m, axes[1]); k=2 flips both axes;
  // k=3 flips axes[1] of the transpose (the transpose swaps axes[0] and axes[1])
  const std::pair<int, int> a = Rot90Axes(p, in);
  const int turns = Rot90Turns(p);
  std::vector<int64_t> s = tensor_cpu::ContiguousStrides(in.dims());
  ViewPlan v;
  v.shape = out.dims();
  v.dst_stride = tensor_cpu::ContiguousStrides(out.dims());
  const bool empty = in.Size() == 0;
  auto flip = [&](std::vector<int64_t>* st, const std::vector<int64_t>& shape, int ax) {
    if (!empty) v.src_off += (shape[static_cast<size_t>(ax)] - 1) * (*st)[static_cast<size_t>(ax)];
    (*st)[static_cast<size_t>(ax)] = -(*st)[static_cast<size_t>(ax)];
  };
  std::vector<int64_t> shape = in.dims();
  if (turns == 2) {
    flip(&s, shape, a.first);
    flip(&s, shape, a.second);
  } else if (turns == 1) {
    flip(&s, shape, a.second);
  }
  if (turns % 2 == 1) {
    std::swap(s[static_cast<size_t>(a.first)], s[static_cast<size_t>(a.second)]);
    std::swap(shape[static_cast<size_t>(a.first)], shape[static_cast<size_t>(a.second)]);
  }
  if (turns == 3) flip(&s, shape, a.second);
  v.src_stride = s;
  return v;
}

Shape AtLeastShape(int ndim, const Shape& in) {
  if (in.ndim() >= ndim) return in;
  if (in.ndim() == 0) return Shape(std::vector<int64_t>(static_cast<size_t>(ndim), 1));
  if (in.ndim() == 1) return ndim == 2 ? Shape{1, in[0]} : Shape{1, in[0], 1};
  return Shape{in[0], in[1], 1};  // 2-D to 3-D
}

}  // namespace tensor

namespace {

void NpRollCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::RollGeom g = tensor::RollGeomOf(p, in[0].shape);
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    nnm::ForEachIndex(out[0].Size(), 8, [&](int64_t i) { nnm::Put<T, T>(y, i, r, x[tensor::RollSource(g, i)]); });
  });
}

void NpTrilCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::TrilGeom g = tensor::TrilGeomOf(p, in[0].shape);
  const OpReq r = req[0];
  WEFT_DTYPE_SWITCH(in[0].dtype, T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    nnm::ForEachIndex(out[0].Size(), 2, [&](int64_t i) {
      nnm::Put<T, T>(y, i, r, tensor::TrilKeeps(g, i) ? x[tensor::TrilSource(g, i)] : T(0));
    });
  });
}

// The forward attributes with `key` set to `value` (the gradients' own parameters).
std::map<std::string, std::string> NpLayoutAttrs(GradBuilder& b, const std::string& op, const std::string& key,
                                                 const std::string& value) {
  std::map<std::string, std::string> a = b.Attrs(op);
  a[key] = value;
  return a;
}

WEFT_REGISTER_OP("_np_moveaxis").set_compute_gpu(WEFT_GPU(cuda::NpMoveAxisGpu))
    .describe("Move axes of an array to new positions (np.moveaxis); the other axes keep their order.")
    .add_input("a")
    .add_required_param("source", ParamType::kShape, "Original positions of the axes to move (distinct).")
    .add_required_param("destination", ParamType::kShape, "Destination positions of each moved axis (distinct).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, tensor::MoveAxisShape(p, (*in)[0]), "_np_moveaxis: output");
      return true;
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::MoveAxisPlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      std::map<std::string, std::string> a;
      a["source"] = tensor::TupleString(n->params.GetTuple("destination"));
      a["destination"] = tensor::TupleString(n->params.GetTuple("source"));
      return {b("_np_moveaxis", {og[0]}, a)};
    });

WEFT_REGISTER_OP("_np_roll").set_compute_gpu(WEFT_GPU(cuda::NpRollGpu))
    .describe("Roll array elements along the given axes (np.roll): elements shifted past the end come back at "
              "the start. axis=None rolls the flattened array and restores its shape.")
    .add_input("data")
    .add_optional_param("shift", ParamType::kShape,
                        "The number of places to shift: one integer, or one per axis in `axis`.")
    .add_optional_param("axis", ParamType::kShape, "The axes to roll along; None rolls the flattened array.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      tensor::RollGeomOf(p, (*in)[0]);
      AssignShape(out, 0, (*in)[0], "_np_roll: output");
      return true;
    })
    .set_compute_cpu(NpRollCompute)
    .set_same_shape(SameShapeSlots::Data())  // so a known output shape gives the input's
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      std::vector<int64_t> back = n->params.GetTuple("shift");
      for (int64_t& s : back) s = -s;
      return {b("_np_roll", {og[0]}, NpLayoutAttrs(b, "_np_roll", "shift", tensor::TupleString(back)))};
    });

WEFT_REGISTER_OP("_npi_tril").set_compute_gpu(WEFT_GPU(cuda::NpTrilGpu))
    .describe("Lower triangle of an array (np.tril): the elements above the k-th diagonal of the last two axes "
              "are zeroed (k > 0 keeps diagonals above the main one, k < 0 removes more). A 1-D input of "
              "length n gives the (n, n) matrix whose rows are the input, lower-triangled.")
    .add_input("data")
    .add_param("k", ParamType::kInt, "0", "The diagonal above which to zero elements.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, tensor::TrilShape(p, (*in)[0]), "_npi_tril: output");
      return true;
    })
    .set_compute_cpu(NpTrilCompute)
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      // tril is linear and masks the same positions of out_grad; a 1-D input was broadcast to
      // the rows, so its gradient sums them back (_broadcast_backward is a copy otherwise)
      GradBuilder b(n);
      const NodeEntry masked = b("_npi_tril", {og[0]}, b.Attrs("_npi_tril"));
      return {b("_broadcast_backward", {masked, b.in(0)})};
    });

WEFT_REGISTER_OP("_npi_broadcast_to").set_compute_gpu(WEFT_GPU(cuda::NpBroadcastToGpu))
    .describe("Broadcast an array to a new shape (np.broadcast_to): the input's axes align with the last axes of "
              "`shape`, and each of size 1 repeats; `shape` may have more axes than the input.")
    .add_input("array")
    .add_param("shape", ParamType::kShape, "()", "The shape to broadcast to (sizes >= 0).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, tensor::NpBroadcastToShape(p, (*in)[0]), "_npi_broadcast_to: output");
      return true;
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::NpBroadcastToPlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      return {b("_broadcast_backward", {og[0], b.in(0)})};
    });

WEFT_REGISTER_OP("_np_diagflat").set_compute_gpu(WEFT_GPU(cuda::NpDiagflatGpu))
    .describe("Create a 2-D array with the flattened input on the k-th diagonal (np.diagflat): the output is "
              "(n + |k|, n + |k|) for an input of n elements, zero elsewhere.")
    .add_input("data")
    .add_param("k", ParamType::kInt, "0", "The diagonal: 0 the main one, k > 0 above it, k < 0 below.")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, tensor::DiagflatShape(p, (*in)[0]), "_np_diagflat: output");
      return true;
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::DiagflatPlan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      // the k-th diagonal of out_grad (the legacy diag of a matrix), in the input's shape
      GradBuilder b(n);
      const NodeEntry d = b("diag", {og[0]}, {{"k", std::to_string(n->params.GetInt("k"))}});
      return {b("_backward_reshape", {d, b.in(0)})};
    });

WEFT_REGISTER_OP("_npi_rot90").set_compute_gpu(WEFT_GPU(cuda::NpRot90Gpu))
    .describe("Rotate an array by 90 degrees k times in the plane of two axes (np.rot90), from the first axis "
              "towards the second. The gradient turns back by -k (MXNet 1.9.1's backward turns by +k, which is "
              "not the adjoint).")
    .add_input("data")
    .add_param("k", ParamType::kInt, "1", "Number of quarter turns (negative turns the other way).")
    .add_optional_param("axes", ParamType::kShape, "The two axes of the plane; None: (0, 1).")
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      AssignShape(out, 0, tensor::Rot90Shape(p, (*in)[0]), "_npi_rot90: output");
      return true;
    })
    .set_compute_cpu(tensor_cpu::ViewPlanCompute(tensor::Rot90Plan))
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);
      const std::string back = std::to_string(-(n->params.GetInt("k") % 4));
      return {b("_npi_rot90", {og[0]}, NpLayoutAttrs(b, "_npi_rot90", "k", back))};
    });

void NpAtLeastCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  for (size_t i = 0; i < in.size(); ++i) {
    if (req[i] == OpReq::kNull) continue;
    tensor_cpu::ConvertCopy(TensorView{in[i].data, in[i].dtype, out[i].shape}, req[i], out[i]);
  }
}

[[maybe_unused]] const bool kNpAtLeastRegistered = [] {
  for (int nd = 1; nd <= 3; ++nd) {
    const std::string name = "_np_atleast_" + std::to_string(nd) + "d";
    WEFT_REGISTER_OP(op, name);
    op.describe("View each input with at least " + std::to_string(nd) + " axes (np." + name.substr(4) +
                "): size-1 axes are added as NumPy adds them; inputs with enough axes are copied as they are. The "
                "gradient is each output gradient in its input's shape (MXNet 1.9.1 back-propagates zeros).")
        .set_compute_gpu(WEFT_GPU(cuda::NpAtLeastGpu))
        .set_variadic("num_args")
        .add_required_param("num_args", ParamType::kInt, "Number of input arrays.")
        .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
        .set_infer_shape([nd](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          bool all = true;
          for (size_t i = 0; i < in->size(); ++i) {
            if (!(*in)[i].known()) {
              all = false;
              continue;
            }
            AssignShape(out, i, tensor::AtLeastShape(nd, (*in)[i]), p.op()->name + ": output " + std::to_string(i));
          }
          return all;
        })
        .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
          bool all = true;
          for (size_t i = 0; i < in->size(); ++i) {
            if ((*in)[i] == DType::kUnknown) {
              all = false;
              continue;
            }
            AssignType(out, i, (*in)[i], p.op()->name + ": output " + std::to_string(i));
          }
          return all;
        })
        .set_compute_cpu(NpAtLeastCompute)
        .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
          GradBuilder b(n);
          std::vector<NodeEntry> r;
          for (size_t i = 0; i < n->inputs.size(); ++i) r.push_back(b("_backward_reshape", {og[i], b.in(i)}));
          return r;
        });
  }
  return true;
}();

}  // namespace
}  // namespace weft
