// MXNet 1.9.1's NumPy-mode stacking operators under their registered names
// (issue 37, so graphs MXNet wrote in NumPy mode load): _npi_vstack,
// _npi_hstack, _npi_dstack and _npi_column_stack join their inputs after
// giving them NumPy's extra axes (Note [Stacks as promoted concatenations] in
// np_stack_rules.h), one strided copy per input; each has a backward op
// (_backward_npi_<what>: out_grad and the forward inputs, whose shapes it
// reads) that copies each input's part of out_grad back. GPU kernels in
// np_stack.cu.
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/op_util.h"
#include "core/op/shape/np_stack_rules.h"
#include "core/op/shape/np_stack_gpu.h"
#include "core/op/shape/view_plan_cpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor {

NpStackParts NpStackPartsOf(const std::string& op, const std::vector<Shape>& ins) {
  WEFT_CHECK(!ins.empty(), kInvalidArgument) << op << ": needs at least one input array";
  const bool v = op.find("vstack") != std::string::npos, h = op.find("hstack") != std::string::npos,
             d = op.find("dstack") != std::string::npos;
  std::vector<Shape> promoted;
  for (const Shape& s : ins) {
    const int nd = s.ndim();
    if (v) promoted.push_back(nd == 0 ? Shape{1, 1} : nd == 1 ? Shape{1, s[0]} : s);
    else if (h) promoted.push_back(nd == 0 ? Shape{1} : s);
    else if (d) promoted.push_back(nd == 0   ? Shape{1, 1, 1}
                                   : nd == 1 ? Shape{1, s[0], 1}
                                   : nd == 2 ? Shape{s[0], s[1], 1}
                                             : s);
    else promoted.push_back(nd == 0 ? Shape{1, 1} : nd == 1 ? Shape{s[0], 1} : s);  // column_stack
  }
  NpStackParts parts;
  const Shape& first = promoted[0];
  parts.axis = v ? 0 : h ? (first.ndim() == 1 ? 0 : 1) : d ? 2 : 1;
  parts.out = first;
  parts.out[parts.axis] = 0;
  for (size_t i = 0; i < promoted.size(); ++i) {
    const Shape& s = promoted[i];
    bool fits = s.ndim() == first.ndim();
    for (int a = 0; fits && a < s.ndim(); ++a) fits = a == parts.axis || s[a] == first[a];
    WEFT_CHECK(fits, kShape) << op << ": input " << i << " of shape " << ins[i].ToString()
                             << " does not match input 0 of shape " << ins[0].ToString() << " except on axis "
                             << parts.axis << " (after NumPy's promotion to " << first.ndim() << " axes)";
    parts.out[parts.axis] = CheckedAdd(parts.out[parts.axis], s[parts.axis], "the stacked axis of a NumPy stack");
    parts.inner.push_back(s.ProdRange(parts.axis, s.ndim()));
    parts.total_inner = CheckedAdd(parts.total_inner, parts.inner.back(), "the stacked size of a NumPy stack");
  }
  parts.outer = first.ProdRange(0, parts.axis);
  return parts;
}

ViewPlan NpStackPlan(const NpStackParts& parts, size_t i, bool backward) {
  int64_t offset = 0;
  for (size_t j = 0; j < i; ++j) offset += parts.inner[j];
  ViewPlan v;
  v.shape = {parts.outer, parts.inner[i]};
  v.src_stride = {parts.inner[i], 1};
  v.dst_stride = {parts.total_inner, 1};
  v.dst_off = offset;
  if (backward) {
    std::swap(v.src_stride, v.dst_stride);
    std::swap(v.src_off, v.dst_off);
  }
  return v;
}

}  // namespace tensor

namespace {

std::vector<Shape> NpStackShapes(const std::vector<TensorView>& t, size_t from) {
  std::vector<Shape> s;
  for (size_t i = from; i < t.size(); ++i) s.push_back(t[i].shape);
  return s;
}

void NpStackCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const tensor::NpStackParts parts = tensor::NpStackPartsOf(p.op()->name, NpStackShapes(in, 0));
  // the parts cover the output, so kAddTo's staging array is written whole
  tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& o) {
    for (size_t i = 0; i < in.size(); ++i) {
      const tensor::ViewPlan v = tensor::NpStackPlan(parts, i, false);
      tensor_cpu::StridedCopy(DTypeSize(o.dtype), v.shape, in[i].data, v.src_off, v.src_stride, o.data, v.dst_off,
                              v.dst_stride);
    }
  });
}

void BackwardNpStackCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const tensor::NpStackParts parts = tensor::NpStackPartsOf(p.op()->name, NpStackShapes(in, 1));
  for (size_t i = 0; i < out.size(); ++i) {
    if (req[i] == OpReq::kNull || out[i].Size() == 0) continue;
    tensor_cpu::RunViewPlan(tensor::NpStackPlan(parts, i, true), in[0], req[i], out[i]);
  }
}

struct NpStackDecl {
  const char* name;
  const char* what;
  bool has_dim;  // MXNet declares an unused `dim` on hstack and dstack
};

[[maybe_unused]] const bool kNpStacksRegistered = [] {
  static const NpStackDecl kDecls[] = {
      {"_npi_vstack", "Stacks arrays in sequence vertically (row wise): 1-D inputs (n,) become rows (1, n), "
                      "then they are joined along axis 0 (np.vstack).", false},
      {"_npi_hstack", "Stacks arrays in sequence horizontally (column wise): joined along axis 1, or along "
                      "axis 0 when the first input is 1-D (np.hstack).", true},
      {"_npi_dstack", "Stacks arrays in sequence depth wise: inputs get at least 3 axes ((n,) -> (1, n, 1), "
                      "(m, n) -> (m, n, 1)) and are joined along axis 2 (np.dstack).", true},
      {"_npi_column_stack", "Stacks 1-D arrays as columns into a 2-D array ((n,) -> (n, 1)); 2-D and higher "
                            "inputs are joined along axis 1 as they are (np.column_stack).", false},
  };
  for (const NpStackDecl& d : kDecls) {
    const std::string backward = std::string("_backward") + d.name;
    WEFT_REGISTER_OP(op, d.name);
    op.describe(d.what)
        .set_variadic("num_args")
        .add_required_param("num_args", ParamType::kInt, "Number of inputs to stack.")
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          if (!tensor::AllKnown(*in)) return false;
          AssignShape(out, 0, tensor::NpStackPartsOf(p.op()->name, *in).out, p.op()->name + ": output");
          return true;
        })
        .set_compute_cpu(NpStackCompute)
        .set_compute_gpu(WEFT_GPU(cuda::NpStackGpu))
        .set_gradient([backward](const NodePtr& n, const std::vector<NodeEntry>& og) {
          GradBuilder b(n);
          std::vector<NodeEntry> in = {og[0]};
          in.insert(in.end(), n->inputs.begin(), n->inputs.end());
          const NodePtr g = b.NodeWithAttrs(backward, in);
          std::vector<NodeEntry> r;
          for (uint32_t i = 0; i < n->inputs.size(); ++i) r.push_back(OutputOf(g, i));
          return r;
        });
    if (d.has_dim) op.add_param("dim", ParamType::kInt, "1", "Unused: the axis is the function's (MXNet's schema).");

    WEFT_REGISTER_OP(bop, backward);
    bop.describe(std::string("Gradient of ") + d.name + ": inputs (out_grad, arg0, ..., arg{num_args-1}), the "
                 "args being the forward inputs (only their shapes are read); output i is arg i's part of out_grad.")
        .set_variadic("num_args")
        .add_required_param("num_args", ParamType::kInt, "Number of inputs the forward stacked.")
        .set_num_outputs([](const Params& p) { return static_cast<int>(p.GetInt("num_args")); })
        .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          if (!ShapesOfArgs(p, in, out)) return false;
          const std::vector<Shape> args(in->begin() + 1, in->end());
          const Shape joined = tensor::NpStackPartsOf(p.op()->name, args).out;
          WEFT_CHECK((*in)[0] == joined, kShape) << p.op()->name << ": out_grad of shape " << (*in)[0].ToString()
                                                 << " is not the stack of the args, of shape " << joined.ToString();
          return true;
        })
        .set_compute_cpu(BackwardNpStackCompute)
        .set_compute_gpu(WEFT_GPU(cuda::BackwardNpStackGpu));
    if (d.has_dim) bop.add_param("dim", ParamType::kInt, "1", "Unused, as the forward's.");
    bop.list_input_names = GradAndArgs;
    bop.list_output_names = ArgGrads;
  }
  return true;
}();

}  // namespace
}  // namespace weft
