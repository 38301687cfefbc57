// _npi_ediff1d (np.ediff1d, MXNet 1.9.1's registered name, issue 37) and its
// gradient _npi_backward_ediff1d (MXNet's name for it too).
//
// Note [np.ediff1d with its ends]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The differences of the flattened input, out = [to_begin..., a[1:] - a[:-1],
// to_end...], 1-D. Each end is absent, a number (to_begin_scalar /
// to_end_scalar, one element) or an array input, flattened (to_*_arr_given):
// MXNet's inputs are (input1 = a, input2, input3), the arrays in the order
// begin, end, so a graph with only to_end as an array holds it as input2.
// Every input and the output share a's dtype (MXNet's type rule: it refuses a
// float to_end for an int a). The gradient reaches a (the transposed
// difference of the middle part) and the array ends (their slices of the
// output gradient, as MXNet's backward gives them). The kernels compute in
// double; the GPU kernels run them on host copies (np_ediff1d.cu): a 1-D
// difference with ends is a copy-bound edge case.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/reduce/np_ediff1d_cpu.h"
#include "core/op/reduce/np_ediff1d_gpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {
// Named, not anonymous: the unity build joins this file with the family's others.
namespace np_ediff1d {

// Where the parts of the output come from: the input index of each array end
// (-1: none) and the lengths of begin, middle and end.
struct Ediff1dGeom {
  int begin_input = -1, end_input = -1;
  int64_t begin = 0, mid = 0, end = 0;
  int64_t size() const { return begin + mid + end; }
};

// `shapes` are the forward's inputs (a first).
Ediff1dGeom GeomOf(const Params& p, const std::vector<Shape>& shapes) {
  Ediff1dGeom g;
  const int64_t n = shapes[0].Size();
  g.mid = n > 0 ? n - 1 : 0;
  int next = 1;
  if (p.GetBool("to_begin_arr_given")) {
    g.begin_input = next++;
    g.begin = shapes[static_cast<size_t>(g.begin_input)].Size();
  } else if (!p.IsNone("to_begin_scalar")) {
    g.begin = 1;
  }
  if (p.GetBool("to_end_arr_given")) {
    g.end_input = next++;
    g.end = shapes[static_cast<size_t>(g.end_input)].Size();
  } else if (!p.IsNone("to_end_scalar")) {
    g.end = 1;
  }
  return g;
}

std::vector<Shape> ShapesOf(const std::vector<TensorView>& v, size_t from) {
  std::vector<Shape> s;
  for (size_t i = from; i < v.size(); ++i) s.push_back(v[i].shape);
  return s;
}

void Store(std::vector<double> d, OpReq req, const TensorView& out) {
  tensor_cpu::ConvertCopy(TensorView{d.data(), DType::kFloat64, out.shape}, req, out);
}

void Forward(const Params& p, const std::vector<TensorView>& in, OpReq req, const TensorView& out) {
  const Ediff1dGeom g = GeomOf(p, ShapesOf(in, 0));
  std::vector<double> y;
  y.reserve(static_cast<size_t>(g.size()));
  if (g.begin_input >= 0) {
    for (double v : nnx_cpu::ToDoubles(in[static_cast<size_t>(g.begin_input)])) y.push_back(v);
  } else if (g.begin == 1) {
    y.push_back(p.GetFloat("to_begin_scalar"));
  }
  const std::vector<double> a = nnx_cpu::ToDoubles(in[0]);
  for (int64_t i = 0; i < g.mid; ++i) y.push_back(a[static_cast<size_t>(i + 1)] - a[static_cast<size_t>(i)]);
  if (g.end_input >= 0) {
    for (double v : nnx_cpu::ToDoubles(in[static_cast<size_t>(g.end_input)])) y.push_back(v);
  } else if (g.end == 1) {
    y.push_back(p.GetFloat("to_end_scalar"));
  }
  Store(std::move(y), req, out);
}

void Backward(const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  const Ediff1dGeom g = GeomOf(p, ShapesOf(in, 1));
  const std::vector<double> og = nnx_cpu::ToDoubles(in[0]);
  const size_t n = static_cast<size_t>(in[1].Size());
  std::vector<double> ga(n, 0.0);
  for (int64_t i = 0; i < g.mid; ++i) {
    const double gi = og[static_cast<size_t>(g.begin + i)];
    ga[static_cast<size_t>(i + 1)] += gi;
    ga[static_cast<size_t>(i)] -= gi;
  }
  Store(std::move(ga), req[0], out[0]);
  auto slice = [&](int64_t from, int64_t len) {
    return std::vector<double>(og.begin() + from, og.begin() + from + len);
  };
  if (g.begin_input >= 0)
    Store(slice(0, g.begin), req[static_cast<size_t>(g.begin_input)], out[static_cast<size_t>(g.begin_input)]);
  if (g.end_input >= 0)
    Store(slice(g.begin + g.mid, g.end), req[static_cast<size_t>(g.end_input)],
          out[static_cast<size_t>(g.end_input)]);
}

std::vector<std::string> InputNames(const Params& p) {
  std::vector<std::string> n = {"input1"};
  if (p.GetBool("to_begin_arr_given")) n.push_back("input" + std::to_string(n.size() + 1));
  if (p.GetBool("to_end_arr_given")) n.push_back("input" + std::to_string(n.size() + 1));
  return n;
}

void Ediff1dParams(OpDef& op) {
  op.add_param("to_begin_arr_given", ParamType::kBool, "False",
               "To determine whether the `to_begin` parameter is an array.");
  op.add_param("to_end_arr_given", ParamType::kBool, "False",
               "To determine whether the `to_end` parameter is an array.");
  op.add_optional_param("to_begin_scalar", ParamType::kFloat,
                        "If the `to_begin`is a scalar, the value of this parameter.");
  op.add_optional_param("to_end_scalar", ParamType::kFloat, "If the `to_end`is a scalar, the value of this parameter.");
}

// Every input (and output) in one dtype: `first` is the index of a.
bool OneDType(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t first) {
  const std::string& op = p.op()->name;
  const DType a = (*in)[first];
  if (a == DType::kUnknown) return false;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] == DType::kUnknown) (*in)[i] = a;
    WEFT_CHECK((*in)[i] == a, kDType) << op << ": every input must have input1's dtype " << DTypeName(a)
                                      << ", got " << DTypeName((*in)[i]) << " for input " << i;
  }
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, a, op + ": output");
  return true;
}

}  // namespace np_ediff1d

void Ediff1dCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] != OpReq::kNull) np_ediff1d::Forward(p, in, req[0], out[0]);
}

void Ediff1dBackwardCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  np_ediff1d::Backward(p, in, req, out);
}

}  // namespace reduce_np

namespace np_ediff1d_op {

using reduce_np::np_ediff1d::Ediff1dGeom;
using reduce_np::np_ediff1d::GeomOf;

[[maybe_unused]] const bool kEdiff1dRegistered = [] {
  WEFT_REGISTER_OP(op, "_npi_ediff1d").set_compute_gpu(WEFT_GPU(cuda::NpEdiff1dGpu));
  op.describe("The differences between consecutive elements of the flattened input, with `to_begin` before "
              "and `to_end` after them (np.ediff1d; Note [np.ediff1d with its ends]): numbers or arrays.")
      .add_input("input1")
      .add_input("input2")
      .add_input("input3");
  reduce_np::np_ediff1d::Ediff1dParams(op);
  op.list_input_names = reduce_np::np_ediff1d::InputNames;
  op.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        AssignShape(out, 0, Shape{GeomOf(p, *in).size()}, "_npi_ediff1d: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return reduce_np::np_ediff1d::OneDType(p, in, out, 0);
      })
      .set_compute_cpu(reduce_np::Ediff1dCompute)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> in = {og[0]};
        for (const NodeEntry& e : n->inputs) in.push_back(e);
        return ViaBackwardOp(n, "_npi_backward_ediff1d", in);
      });
  return true;
}();

[[maybe_unused]] const bool kEdiff1dBackwardRegistered = [] {
  WEFT_REGISTER_OP(op, "_npi_backward_ediff1d").set_compute_gpu(WEFT_GPU(cuda::NpEdiff1dBackwardGpu));
  op.describe("Gradient of np.ediff1d from (out_grad, input1[, input2][, input3]): the gradients of the "
              "array inputs.")
      .add_input("out_grad")
      .add_input("input1")
      .add_input("input2")
      .add_input("input3");
  reduce_np::np_ediff1d::Ediff1dParams(op);
  op.list_input_names = [](const Params& p) {
    std::vector<std::string> n = reduce_np::np_ediff1d::InputNames(p);
    n.insert(n.begin(), "out_grad");
    return n;
  };
  op.set_num_outputs([](const Params& p) {
        return 1 + static_cast<int>(p.GetBool("to_begin_arr_given")) + static_cast<int>(p.GetBool("to_end_arr_given"));
      })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (size_t i = 1; i < in->size(); ++i)
          if (!(*in)[i].known()) return false;
        const std::vector<Shape> fwd(in->begin() + 1, in->end());
        AssignShape(in, 0, Shape{GeomOf(p, fwd).size()}, "_npi_backward_ediff1d: input 'out_grad'");
        for (size_t i = 0; i < out->size(); ++i) AssignShape(out, i, fwd[i], "_npi_backward_ediff1d: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return reduce_np::np_ediff1d::OneDType(p, in, out, 1);
      })
      .set_compute_cpu(reduce_np::Ediff1dBackwardCompute);
  return true;
}();

}  // namespace np_ediff1d_op
}  // namespace weft
