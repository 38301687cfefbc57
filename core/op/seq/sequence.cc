// SequenceMask and SequenceLast (MXNet 1.x) with their backward operators.
// data is (max_len, batch, ...) for axis 0 or (batch, max_len, ...) for axis
// 1; sequence_length (batch,), any dtype, is an input only when
// use_sequence_length is True (else every sequence has max_len steps).
//
// _backward_SequenceMask takes (out_grad[, sequence_length]);
// _backward_SequenceLast takes (out_grad, data[, sequence_length]) — data only
// for its shape, which out_grad lacks. Both return a zero gradient for
// sequence_length. Kernels: core/op/seq/upsampling_sequence_cpu.cc.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/seq/sequence_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/seq/sequence_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

int SeqAxis(const Params& p) {
  const int64_t a = p.GetInt("axis");
  WEFT_CHECK(a == 0 || a == 1, kInvalidArgument) << p.op()->name << ": parameter 'axis' must be 0 or 1, got " << a;
  return static_cast<int>(a);
}

bool UsesLength(const Params& p) { return p.GetBool("use_sequence_length"); }

void AddSeqParams(OpDef& op, bool with_value) {
  op.add_param("use_sequence_length", ParamType::kBool, "False",
               "If set to true, this layer takes in an extra input parameter `sequence_length` to specify "
               "variable length sequence");
  if (with_value) op.add_param("value", ParamType::kFloat, "0", "The value to be used as a mask.");
  op.add_param("axis", ParamType::kInt, "0",
               "The sequence axis. Only values of 0 and 1 are currently supported.");
}

// Checks data and fills the length input's shape (batch,).
void CheckData(const Params& p, std::vector<Shape>* in, size_t data_index) {
  const Shape& d = (*in)[data_index];
  const int axis = SeqAxis(p);
  WEFT_CHECK(d.ndim() >= 2, kShape) << p.op()->name << ": input 'data' must have at least 2 dims (time, batch), got "
                                    << d.ToString();
  if (UsesLength(p))
    AssignShape(in, in->size() - 1, Shape{d[1 - axis]}, p.op()->name + ": input 'sequence_length'");
}

std::vector<double> Lengths(const Params& p, const std::vector<TensorView>& in) {
  return UsesLength(p) ? nnx_cpu::ToDoubles(in.back()) : std::vector<double>();
}

// data (or out_grad) floating; sequence_length any dtype (defaults to data's).
bool SeqType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const std::string& op = p.op()->name;
  const size_t n_float = in->size() - (UsesLength(p) ? 1 : 0);
  DType t = DType::kUnknown;
  for (size_t i = 0; i < n_float; ++i)
    if ((*in)[i] != DType::kUnknown) t = (*in)[i];
  if (t == DType::kUnknown) return false;
  nnx::CheckFloating(t, op, "input 'data'");
  for (size_t i = 0; i < n_float; ++i) AssignType(in, i, t, op + ": input '" + nnx::InputName(p, i) + "'");
  if (UsesLength(p) && in->back() == DType::kUnknown) in->back() = t;
  AssignType(out, 0, t, op + ": output 0");
  if (out->size() > 1) AssignType(out, 1, in->back(), op + ": output 1");
  return true;
}

void ZeroLengthGrad(const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (out.size() > 1 && req[1] != OpReq::kNull && req[1] != OpReq::kAddTo)
    out[1].ZeroFill();
}

// `fixed` plus `length` when use_sequence_length.
FListNames Names(std::vector<std::string> fixed, const char* length) {
  return [fixed, length](const Params& p) {
    std::vector<std::string> n = fixed;
    if (UsesLength(p)) n.push_back(length);
    return n;
  };
}

[[maybe_unused]] const bool kSequenceMaskRegistered = [] {
  WEFT_REGISTER_OP(fwd, "SequenceMask").set_compute_gpu(WEFT_GPU(cuda::SequenceMaskGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe("Sets all elements outside the sequence to a constant value.\n\n"
               "This function takes an n-dimensional input array of the form [max_sequence_length, batch_size, "
               "other_feature_dims] and returns an array of the same shape.\n\n"
               "Parameter `sequence_length` is used to handle variable-length sequences. `sequence_length` should "
               "be an input array of positive ints of dimension [batch_size]. To use this parameter, set "
               "`use_sequence_length` to `True`, otherwise each example in the batch is assumed to have the max "
               "sequence length and this operator works as the `identity` operator.")
      .add_input("data")
      .add_input("sequence_length");
  AddSeqParams(fwd, true);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        CheckData(p, in, 0);
        AssignShape(out, 0, (*in)[0], "SequenceMask: output");
        return true;
      })
      .set_infer_type(SeqType)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SequenceMaskCPU(in[0], Lengths(p, in), SeqAxis(p), p.GetFloat("value"), req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> in = {og[0]};
        if (n->inputs.size() > 1) in.push_back(n->inputs[1]);
        return ViaBackwardOp(n, "_backward_SequenceMask", in);
      });
  fwd.list_input_names = Names({"data"}, "sequence_length");

  WEFT_REGISTER_OP(bwd, "_backward_SequenceMask").set_compute_gpu(WEFT_GPU(cuda::BackwardSequenceMaskGpu));
  bwd.set_same_shape(SameShapeSlots::Data());
  bwd.describe("Gradient of SequenceMask from (out_grad[, sequence_length]): out_grad inside the sequences, "
               "zero outside.")
      .add_input("out_grad")
      .add_input("sequence_length");
  AddSeqParams(bwd, true);
  bwd.set_num_outputs([](const Params& p) { return UsesLength(p) ? 2 : 1; })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        CheckData(p, in, 0);
        AssignShape(out, 0, (*in)[0], "_backward_SequenceMask: output 0");
        if (UsesLength(p)) AssignShape(out, 1, (*in)[1], "_backward_SequenceMask: output 1");
        return true;
      })
      .set_infer_type(SeqType)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SequenceMaskCPU(in[0], Lengths(p, in), SeqAxis(p), 0.0, req[0], out[0]);
        ZeroLengthGrad(req, out);
      })
      .add_inplace(0, 0);
  bwd.list_input_names = Names({"out_grad"}, "sequence_length");
  bwd.list_output_names = Names({"data_grad"}, "sequence_length_grad");
  return true;
}();

[[maybe_unused]] const bool kSequenceLastRegistered = [] {
  WEFT_REGISTER_OP(fwd, "SequenceLast").set_compute_gpu(WEFT_GPU(cuda::SequenceLastGpu));
  fwd.describe("Takes the last element of a sequence.\n\n"
               "This function takes an n-dimensional input array of the form [max_sequence_length, batch_size, "
               "other_feature_dims] and returns a (n-1)-dimensional array of the form [batch_size, "
               "other_feature_dims].\n\n"
               "Parameter `sequence_length` is used to handle variable-length sequences. `sequence_length` should "
               "be an input array of positive ints of dimension [batch_size]. To use this parameter, set "
               "`use_sequence_length` to `True`, otherwise each example in the batch is assumed to have the max "
               "sequence length.")
      .add_input("data")
      .add_input("sequence_length");
  AddSeqParams(fwd, false);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        CheckData(p, in, 0);
        const Shape& d = (*in)[0];
        Shape o;
        for (int i = 0; i < d.ndim(); ++i)
          if (i != SeqAxis(p)) o.push_back(d[i]);
        // A sequence of no steps has no last element to copy into a non-empty output.
        WEFT_CHECK(d[SeqAxis(p)] > 0 || o.Size() == 0, kShape)
            << "SequenceLast: input 'data' " << d.ToString() << " has no steps along axis " << SeqAxis(p)
            << ", so there is no last element";
        AssignShape(out, 0, o, "SequenceLast: output");
        return true;
      })
      .set_infer_type(SeqType)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SequenceLastForward(in[0], Lengths(p, in), SeqAxis(p), req[0], out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> in = {og[0], n->inputs[0]};
        if (n->inputs.size() > 1) in.push_back(n->inputs[1]);
        return ViaBackwardOp(n, "_backward_SequenceLast", in);
      });
  fwd.list_input_names = Names({"data"}, "sequence_length");

  WEFT_REGISTER_OP(bwd, "_backward_SequenceLast").set_compute_gpu(WEFT_GPU(cuda::BackwardSequenceLastGpu));
  bwd.describe("Gradient of SequenceLast from (out_grad, data[, sequence_length]): out_grad at each sequence's "
               "last step, zero elsewhere (data gives the shape).")
      .add_input("out_grad")
      .add_input("data")
      .add_input("sequence_length");
  AddSeqParams(bwd, false);
  bwd.set_num_outputs([](const Params& p) { return UsesLength(p) ? 2 : 1; })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[1].known()) return false;
        CheckData(p, in, 1);
        const Shape& d = (*in)[1];
        Shape o;
        for (int i = 0; i < d.ndim(); ++i)
          if (i != SeqAxis(p)) o.push_back(d[i]);
        AssignShape(in, 0, o, "_backward_SequenceLast: input 'out_grad'");
        AssignShape(out, 0, d, "_backward_SequenceLast: output 0");
        if (UsesLength(p)) AssignShape(out, 1, (*in)[2], "_backward_SequenceLast: output 1");
        return true;
      })
      .set_infer_type(SeqType)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SequenceLastBackward(in[0], Lengths(p, in), SeqAxis(p), req[0], out[0]);
        ZeroLengthGrad(req, out);
      });
  bwd.list_input_names = Names({"out_grad", "data"}, "sequence_length");
  bwd.list_output_names = Names({"data_grad"}, "sequence_length_grad");
  return true;
}();

}  // namespace
}  // namespace weft
