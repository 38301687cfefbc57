// MXNet 1.9.1's NumPy-mode layout operators that no legacy operator computes
// (issue 37: declared under MXNet's registered names, so graphs MXNet wrote in
// NumPy mode load): _np_moveaxis (np.moveaxis: one strided copy, Note [Ops
// that are one strided copy] in view_plan.h), _np_roll (np.roll, flattened
// when axis=None) and _npi_tril (np.tril over the last two axes; a 1-D input
// is read as the square matrix of its rows, as NumPy broadcasts it). The
// gradients are the ops themselves: moveaxis back, roll by -shift, and tril of
// the output gradient summed back to a 1-D input's shape. Per-element rules in
// np_layout_rules.h, GPU kernels in np_layout.cu.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

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
      total[static_cast<size_t>(a)] += shift[shift.size() == 1 ? 0 : i];  // a repeated axis adds up, as NumPy
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

}  // namespace
}  // namespace weft
