// softmax, log_softmax, softmin, SoftmaxActivation and softmax_cross_entropy (MXNet
// 1.x) with their backward operators. SoftmaxOutput: softmax_output.cc.
// Kernels: core/op/softmax/softmax_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/softmax/softmax_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/softmax/softmax_gpu.h"
#include "core/op/op_util.h"
#include "core/op/softmax/softmax_rules.h"

namespace weft {
namespace nnx {

// The decoders of core/op/softmax/softmax_rules.h (shared with the GPU kernels).

double SoftmaxTemperature(const Params& p) {
  if (p.IsNone("temperature")) return 1.0;
  const double t = p.GetFloat("temperature");
  WEFT_CHECK(t != 0 && t == t, kInvalidArgument)
      << p.op()->name << ": parameter 'temperature' must be a non-zero number, got " << t;
  return t;
}

AxisSplit SoftmaxAxisSplit(const Params& p, const Shape& s) {
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), s.ndim(), p.op()->name, "data");
  return SplitAt(s, axis);
}

void CheckSoftmaxNoLength(const Params& p) {
  WEFT_CHECK(!p.GetBool("use_length"), kInvalidArgument)
      << p.op()->name << ": use_length=True (masking by a length input) is not supported here";
}

// Note [Softmax with length]
// MXNet 1.9.1's softmax, log_softmax and softmin take use_length=True and a
// second input, `length`, of the data's shape without the softmax axis ((1,)
// for 1-D data): row r is the softmax of its first length[r] elements alone,
// and the elements past it are 0 (log_softmax's too, as MXNet's kernel writes
// them); the backward op reads the length again and gives 0 there, and the
// length's own gradient is 0. Attention with valid lengths (GluonNLP's BERT,
// d2l's masked_softmax) is written this way. A length is read as an integer,
// clamped to [0, n]; a row of length 0 is all zeros.
Shape SoftmaxLengthShape(const Params& p, const Shape& data) {
  const int axis = tensor::NormalizeAxis(p.GetInt("axis"), data.ndim(), p.op()->name, "data");
  std::vector<int64_t> d;
  for (int i = 0; i < data.ndim(); ++i)
    if (i != axis) d.push_back(data[i]);
  if (d.empty()) d.push_back(1);
  return Shape(d);
}

void CheckSoftmaxLengthType(const std::string& op, DType t) {
  WEFT_CHECK(t == DType::kInt32 || t == DType::kInt64 || t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << op << ": input 'length' must be int32, int64, float32 or float64, got " << DTypeName(t);
}

AxisSplit SoftmaxActivationSplit(const Params& p, const Shape& s) {
  AxisSplit r;
  r.outer = s[0];
  if (p.GetString("mode") == "channel") {
    r.n = s[1];
    r.inner = s.ProdRange(2, s.ndim());
  } else {
    r.n = s.ProdRange(1, s.ndim());
  }
  return r;
}

}  // namespace nnx

namespace {

using nnx::CheckSoftmaxNoLength;
using nnx::SoftmaxActivationSplit;
using nnx::SoftmaxAxisSplit;
using nnx::SoftmaxTemperature;

void AddSoftmaxParams(OpDef& op) {
  op.add_param("axis", ParamType::kInt, "-1", "The axis along which to compute softmax.")
      .add_optional_param("temperature", ParamType::kFloat, "Temperature parameter in softmax (None: 1).")
      .add_optional_param("dtype", ParamType::kDType,
                          "DType of the output in case this can't be inferred. Defaults to the same as input's "
                          "dtype if not defined (dtype=None).")
      .add_param("use_length", ParamType::kBool, "False",
                 "Whether to use the length input as a mask over the data input.");
  op.params.back().optional = true;
}

bool SoftmaxShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& d = (*in)[0];
  if (!d.known()) return false;
  tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), p.op()->name, "data");
  if (p.GetBool("use_length")) AssignShape(in, 1, nnx::SoftmaxLengthShape(p, d), p.op()->name + ": input 'length'");
  AssignShape(out, 0, d, p.op()->name + ": output");
  return true;
}

bool SoftmaxDataType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const std::string& op = p.op()->name;
  nnx::CheckFloating((*in)[0], op, "input 'data'");
  if (p.IsNone("dtype")) return nnx::FloatSameTypeInfer(p, in, out);
  nnx::CheckFloating(p.GetDType("dtype"), op, "parameter 'dtype'");
  AssignType(out, 0, p.GetDType("dtype"), op + ": output (dtype)");
  return (*in)[0] != DType::kUnknown;
}

// The data and output as SoftmaxDataType; the length (use_length) int32 unless known.
bool SoftmaxType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  if (!p.GetBool("use_length")) return SoftmaxDataType(p, in, out);
  if ((*in)[1] == DType::kUnknown) (*in)[1] = DType::kInt32;
  nnx::CheckSoftmaxLengthType(p.op()->name, (*in)[1]);
  std::vector<DType> data = {(*in)[0]};
  const bool ok = SoftmaxDataType(p, &data, out);
  (*in)[0] = data[0];
  return ok;
}

// Second order (autograd.grad with create_graph), with o = out_grad, y =
// output, g the incoming gradient, c = 1 / temperature and sums along axis:
//   softmax:     gx = c y (o - sum(o y));     d/do = c y (g - sum(g y)) (the op on g),
//                                             d/dy = c (g (o - sum(o y)) - o sum(g y))
//   log_softmax: gx = c (o - e^y sum(o));     d/do = c (g - sum(g e^y)),
//                                             d/dy = -c g e^y sum(o)
// softmin is softmax with the temperature negated (sign = -1).
std::vector<NodeEntry> SoftmaxSecondOrder(const NodePtr& n, const NodeEntry& g, bool log, double sign) {
  CheckSoftmaxNoLength(n->params);
  GradBuilder b(n);
  const NodeEntry o = b.in(0), y = b.in(1);
  const double c = sign / SoftmaxTemperature(n->params);
  auto sum = [&](const NodeEntry& e) {
    return b("sum", {e}, {{"axis", std::to_string(n->params.GetInt("axis"))}, {"keepdims", "True"}});
  };
  auto scaled = [&](const NodeEntry& e) { return c == 1.0 ? e : b.Scalar("_mul_scalar", e, c); };
  if (log) {
    const NodeEntry ey = b("exp", {y});
    const NodeEntry d_o = b("broadcast_sub", {g, sum(b.Mul(g, ey))});
    const NodeEntry d_y = b.Neg(b("broadcast_mul", {b.Mul(g, ey), sum(o)}));
    return {scaled(d_o), scaled(d_y)};
  }
  const NodeEntry d_o = OutputOf(b.NodeWithAttrs(n->op->name, {g, y}));
  const NodeEntry d_y = b.Sub(b.Mul(g, b("broadcast_sub", {o, sum(b.Mul(o, y))})),
                              b("broadcast_mul", {o, sum(b.Mul(g, y))}));
  return {d_o, scaled(d_y)};
}

// sign -1: softmin, softmax(x / -temperature).
void RegisterSoftmax(const char* name, bool log, FCompute gpu, FCompute gpu_backward, const char* doc,
                     double sign = 1.0) {
  WEFT_REGISTER_OP(fwd, name).set_compute_gpu(std::move(gpu)).add_method(name);
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe(doc).add_input("data").add_input("length");
  AddSoftmaxParams(fwd);
  fwd.set_infer_shape(SoftmaxShape)
      .set_infer_type(SoftmaxType)
      .set_compute_cpu([log, sign](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const nnx::AxisSplit s = SoftmaxAxisSplit(p, in[0].shape);
        std::vector<int64_t> lens;  // Note [Softmax with length]
        if (p.GetBool("use_length")) lens = nnx_cpu::SoftmaxRowLengths(in[1], s.n);
        nnx_cpu::SoftmaxForward(in[0], s.outer, s.n, s.inner, sign * SoftmaxTemperature(p), log, req[0], out[0],
                                lens.empty() ? nullptr : lens.data());
      })
      .add_inplace(0, 0);
  fwd.list_input_names = [](const Params& p) {
    return p.GetBool("use_length") ? std::vector<std::string>{"data", "length"} : std::vector<std::string>{"data"};
  };
  const std::string bwd_name = std::string("_backward_") + name;
  fwd.set_gradient([bwd_name](const NodePtr& n, const std::vector<NodeEntry>& og) {
    if (!n->params.GetBool("use_length")) return ViaBackwardOp(n, bwd_name, {og[0], OutputOf(n, 0)});
    GradBuilder b(n);  // Note [Softmax with length]: the length's gradient is 0
    const NodeEntry gx = OutputOf(b.NodeWithAttrs(bwd_name, {og[0], OutputOf(n, 0), b.in(1)}));
    return std::vector<NodeEntry>{gx, b("zeros_like", {b.in(1)})};
  });

  WEFT_REGISTER_OP(bwd, std::string("_backward_") + name).set_compute_gpu(std::move(gpu_backward));
  bwd.set_same_shape(SameShapeSlots{{0, 1}, {0}, false});  // not the length (use_length)
  bwd.describe(std::string("Gradient of ") + name + " from (out_grad, output): " +
               (log ? "(out_grad - exp(output) * sum(out_grad)) / temperature"
                    : "output * (out_grad - sum(out_grad * output)) / temperature") +
               " along axis.")
      .add_input("out_grad")
      .add_input("output")
      .add_input("length");
  AddSoftmaxParams(bwd);
  bwd.list_input_names = [](const Params& p) {
    return p.GetBool("use_length") ? std::vector<std::string>{"out_grad", "output", "length"}
                                   : std::vector<std::string>{"out_grad", "output"};
  };
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        std::vector<Shape> pair = {(*in)[0], (*in)[1]};  // the length has its own shape
        const bool ok = SameShapeInfer(*p.op(), p, &pair, out);
        (*in)[0] = pair[0];
        (*in)[1] = pair[1];
        if (!ok) return false;
        tensor::NormalizeAxis(p.GetInt("axis"), (*in)[0].ndim(), p.op()->name, "out_grad");
        if (p.GetBool("use_length"))
          AssignShape(in, 2, nnx::SoftmaxLengthShape(p, (*in)[0]), p.op()->name + ": input 'length'");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        if (!p.GetBool("use_length")) return nnx::FloatSameTypeInfer(p, in, out);
        if ((*in)[2] == DType::kUnknown) (*in)[2] = DType::kInt32;
        nnx::CheckSoftmaxLengthType(p.op()->name, (*in)[2]);
        std::vector<DType> pair = {(*in)[0], (*in)[1]};
        const bool ok = nnx::FloatSameTypeInfer(p, &pair, out);
        (*in)[0] = pair[0];
        (*in)[1] = pair[1];
        return ok;
      })
      .set_compute_cpu([log, sign](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const nnx::AxisSplit s = SoftmaxAxisSplit(p, in[0].shape);
        std::vector<int64_t> lens;  // Note [Softmax with length]
        if (p.GetBool("use_length")) lens = nnx_cpu::SoftmaxRowLengths(in[2], s.n);
        nnx_cpu::SoftmaxBackward(in[0], in[1], s.outer, s.n, s.inner, sign * SoftmaxTemperature(p), log, req[0],
                                 out[0], lens.empty() ? nullptr : lens.data());
      })
      .add_inplace(0, 0);
  bwd.set_gradient([log, sign](const NodePtr& n, const std::vector<NodeEntry>& og) {
    return SoftmaxSecondOrder(n, og[0], log, sign);
  });
}

[[maybe_unused]] const bool kSoftmaxRegistered = [] {
  RegisterSoftmax("softmax", false, WEFT_GPU(cuda::SoftmaxGpu), WEFT_GPU(cuda::BackwardSoftmaxGpu),
                  "Applies the softmax function.\n\n"
                  "The resulting array contains elements in the range (0,1) and the elements along the given axis "
                  "sum up to 1.\n\n"
                  ".. math::\n   softmax(\\mathbf{z/t})_j = \\frac{e^{z_j/t}}{\\sum_{k=1}^K e^{z_k/t}}\n\n"
                  "for :math:`j = 1, ..., K`, where t is the temperature (default 1).\n\n"
                  "Example::\n\n  x = [[ 1.  1.  1.]\n       [ 1.  1.  1.]]\n\n"
                  "  softmax(x,axis=0) = [[ 0.5  0.5  0.5]\n                       [ 0.5  0.5  0.5]]");
  RegisterSoftmax("log_softmax", true, WEFT_GPU(cuda::LogSoftmaxGpu), WEFT_GPU(cuda::BackwardLogSoftmaxGpu),
                  "Computes the log softmax of the input. This is equivalent to computing softmax followed by "
                  "log, but more stable.\n\n"
                  "Examples::\n\n  >>> x = mx.nd.array([1, 2, .1])\n  >>> mx.nd.log_softmax(x).asnumpy()\n"
                  "  array([-1.41702998, -0.41702995, -2.31702995], dtype=float32)");
  RegisterSoftmax("softmin", false, WEFT_GPU(cuda::SoftminGpu), WEFT_GPU(cuda::BackwardSoftminGpu),
                  "Applies the softmin function.\n\n"
                  "The resulting array contains elements in the range (0,1) and the elements along the given axis "
                  "sum up to 1.\n\n"
                  ".. math::\n   softmin(\\mathbf{z/t})_j = \\frac{e^{-z_j/t}}{\\sum_{k=1}^K e^{-z_k/t}}\n\n"
                  "for :math:`j = 1, ..., K`, where t is the temperature (default 1).\n\n"
                  "Example::\n\n  x = [[ 1.  2.  3.]\n       [ 3.  2.  1.]]\n\n"
                  "  softmin(x,axis=0) = [[ 0.88079703  0.5  0.11920292]\n"
                  "                       [ 0.11920292  0.5  0.88079703]]",
                  -1.0);
  return true;
}();

// ---- SoftmaxActivation ----

void CheckActivationShape(const Params& p, const Shape& s) {
  const bool channel = p.GetString("mode") == "channel";
  WEFT_CHECK(s.ndim() >= (channel ? 2 : 1), kShape)
      << p.op()->name << ": input must have at least " << (channel ? 2 : 1) << " dimension(s) for mode '"
      << p.GetString("mode") << "', got shape " << s.ToString();
}

[[maybe_unused]] const bool kSoftmaxActivationRegistered = [] {
  auto add_mode = [](OpDef& op) {
    op.add_enum_param("mode", {"channel", "instance"}, "instance",
                      "Specifies how to compute the softmax. If set to ``instance``, it computes softmax for each "
                      "instance. If set to ``channel``, It computes cross channel softmax for each position of "
                      "each instance.");
  };
  WEFT_REGISTER_OP(fwd, "SoftmaxActivation").set_compute_gpu(WEFT_GPU(cuda::SoftmaxActivationGpu));
  fwd.set_same_shape(SameShapeSlots::All());
  fwd.describe("Applies softmax activation to input. This is intended for internal layers.\n\n"
               "(Deprecated in MXNet; use softmax.) With mode=instance the softmax runs over each instance "
               "(all dims but the first flattened); with mode=channel over axis 1 at every position.")
      .add_input("data");
  add_mode(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        CheckActivationShape(p, (*in)[0]);
        AssignShape(out, 0, (*in)[0], "SoftmaxActivation: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const nnx::AxisSplit s = SoftmaxActivationSplit(p, in[0].shape);
        nnx_cpu::SoftmaxForward(in[0], s.outer, s.n, s.inner, 1.0, false, req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_SoftmaxActivation", {og[0], OutputOf(n, 0)});
      });

  WEFT_REGISTER_OP(bwd, "_backward_SoftmaxActivation").set_compute_gpu(WEFT_GPU(cuda::BackwardSoftmaxActivationGpu));
  bwd.set_same_shape(SameShapeSlots{{0, 1}, {0}, false});  // not the length (use_length)
  bwd.describe("Gradient of SoftmaxActivation from (out_grad, output).").add_input("out_grad").add_input("output");
  add_mode(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!SameShapeInfer(*p.op(), p, in, out)) return false;
        CheckActivationShape(p, (*in)[0]);
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const nnx::AxisSplit s = SoftmaxActivationSplit(p, in[0].shape);
        nnx_cpu::SoftmaxBackward(in[0], in[1], s.outer, s.n, s.inner, 1.0, false, req[0], out[0]);
      })
      .add_inplace(0, 0);
  return true;
}();

// ---- softmax_cross_entropy ----

void CheckCrossEntropyShapes(const std::string& op, const Shape& d, const Shape& l) {
  WEFT_CHECK(d.ndim() == 2, kShape) << op << ": input 'data' must be 2-D (batch, classes), got shape "
                                    << d.ToString();
  WEFT_CHECK(l.ndim() == 1 && l[0] == d[0], kShape)
      << op << ": input 'label' must have shape (" << d[0] << ",) for data of shape " << d.ToString() << ", got "
      << l.ToString();
  WEFT_CHECK(d[1] > 0 || d[0] == 0, kShape) << op << ": input 'data' has no classes: " << d.ToString();
}

bool CrossEntropyType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  nnx::CheckFloating((*in)[0], p.op()->name, "input 'data'");
  if ((*in)[0] == DType::kUnknown) return false;
  if ((*in)[1] == DType::kUnknown) (*in)[1] = (*in)[0];
  for (size_t i = 2; i < in->size(); ++i) AssignType(in, i, (*in)[0], p.op()->name + ": input");
  AssignType(out, 0, (*in)[0], p.op()->name + ": output");
  if (out->size() > 1) AssignType(out, 1, (*in)[1], p.op()->name + ": output 1");
  return true;
}

[[maybe_unused]] const bool kCrossEntropyRegistered = [] {
  WEFT_REGISTER_OP(fwd, "softmax_cross_entropy").set_compute_gpu(WEFT_GPU(cuda::SoftmaxCrossEntropyGpu));
  fwd.describe("Calculate cross entropy of softmax output and one-hot label.\n\n"
               "- This operator computes the cross entropy in two steps:\n"
               "  - Applies softmax function on the input array.\n"
               "  - Computes and returns the cross entropy loss between the softmax output and the labels.\n\n"
               "- The softmax function and cross entropy loss is given by:\n"
               "  - Cross Entropy Function: :math:`CE(label, output) = - \\sum_i label_i \\log(output_i)`\n\n"
               "data has shape (batch, classes), label (batch,) holds class indices (clipped to the valid "
               "range); the output has shape (1,) and is the sum over the batch.")
      .add_input("data")
      .add_input("label")
      .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        if (!(*in)[1].known()) (*in)[1] = Shape{(*in)[0].ndim() >= 1 ? (*in)[0][0] : 0};
        CheckCrossEntropyShapes("softmax_cross_entropy", (*in)[0], (*in)[1]);
        AssignShape(out, 0, Shape{1}, "softmax_cross_entropy: output");
        return true;
      })
      .set_infer_type(CrossEntropyType)
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SoftmaxCrossEntropyForward(in[0], in[1], req[0], out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_softmax_cross_entropy", {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_softmax_cross_entropy").set_compute_gpu(WEFT_GPU(cuda::BackwardSoftmaxCrossEntropyGpu));
  bwd.describe("Gradient of softmax_cross_entropy from (out_grad, data, label): data gets "
               "(softmax(data) - onehot(label)) * out_grad, label gets zeros.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("label")
      .set_num_outputs(2)
      .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known() || !(*in)[2].known()) return false;
        AssignShape(in, 0, Shape{1}, "_backward_softmax_cross_entropy: input 'out_grad'");
        CheckCrossEntropyShapes("_backward_softmax_cross_entropy", (*in)[1], (*in)[2]);
        AssignShape(out, 0, (*in)[1], "_backward_softmax_cross_entropy: output 0");
        AssignShape(out, 1, (*in)[2], "_backward_softmax_cross_entropy: output 1");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        nnx::CheckFloating((*in)[1], p.op()->name, "input 'data'");
        if ((*in)[1] == DType::kUnknown || (*in)[2] == DType::kUnknown) return false;
        AssignType(in, 0, (*in)[1], "_backward_softmax_cross_entropy: input 'out_grad'");
        AssignType(out, 0, (*in)[1], "_backward_softmax_cross_entropy: output 0");
        AssignType(out, 1, (*in)[2], "_backward_softmax_cross_entropy: output 1");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SoftmaxCrossEntropyBackward(in[0], in[1], in[2], req[0], out[0], req[1], out[1]);
      });
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "label_grad"}; };
  return true;
}();

}  // namespace
}  // namespace weft
