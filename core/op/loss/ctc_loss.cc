// CTCLoss (MXNet 1.x; aliases ctc_loss, _contrib_CTCLoss, _contrib_ctc_loss)
// and _backward_ctc_loss.
//
// Connectionist Temporal Classification loss (Graves et al. 2006) of data
// (T, N, C) -- unnormalised activations, softmax applied inside -- against
// label (N, Lmax), with data_lengths (N,) when use_data_lengths and
// label_lengths (N,) when use_label_lengths. blank_label 'first' reserves
// channel 0 for the blank and pads labels with 0; 'last' reserves channel
// C - 1 and pads with -1. Like MXNet the op has two outputs, (out, grad):
// out (N,) the negative log likelihoods, visible; grad (T, N, C) the
// gradient of each sequence's loss with respect to data, hidden, computed by
// the forward-backward recursion (core/op/loss/ctc_loss_rules.h). The
// gradient rule (_backward_ctc_loss(out_grad, grad, label[, lengths...]))
// scales grad by each sequence's head gradient; labels and lengths get
// zeros. CPU kernels here, GPU kernels in ctc_loss.cu.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/loss/ctc_loss_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnm {

CtcGeom CtcGeomOf(const Params& p, const Shape& data, const Shape& label) {
  CtcGeom g;
  g.T = data[0];
  g.N = data[1];
  g.C = data[2];
  g.Lmax = label[1];
  const bool first = p.GetString("blank_label") == "first";
  g.blank = first ? 0 : g.C - 1;
  g.pad = first ? 0.0 : -1.0;
  return g;
}

}  // namespace nnm

namespace {

bool DataLengths(const Params& p) { return p.GetBool("use_data_lengths"); }
bool LabelLengths(const Params& p) { return p.GetBool("use_label_lengths"); }

std::vector<std::string> InputNames(const Params& p) {
  std::vector<std::string> n = {"data", "label"};
  if (DataLengths(p)) n.push_back("data_lengths");
  if (LabelLengths(p)) n.push_back("label_lengths");
  return n;
}

void AddParams(OpDef& op) {
  op.add_param("use_data_lengths", ParamType::kBool, "False",
               "Whether the data lenghts are decided by `data_lengths`. If false, the lengths are equal to the max "
               "sequence length.")
      .add_param("use_label_lengths", ParamType::kBool, "False",
                 "Whether the label lenghts are decided by `label_lengths`, or derived from `padding_mask`. If "
                 "false, the lengths are derived from the first occurrence of the value of `padding_mask`. The "
                 "value of `padding_mask` is ``0`` when first CTC label is reserved for blank, and ``-1`` when "
                 "last label is reserved for blank. See `blank_label`.")
      .add_enum_param("blank_label", {"first", "last"}, "first",
                      "Set the label that is reserved for blank label.If \"first\", 0-th label is reserved, and "
                      "label values for tokens in the vocabulary are between ``1`` and ``alphabet_size-1``, and the "
                      "padding mask is ``-1``. If \"last\", last label value ``alphabet_size-1`` is reserved for "
                      "blank label instead, and label values for tokens in the vocabulary are between ``0`` and "
                      "``alphabet_size-2``, and the padding mask is ``0``.");
}

// Checks data (T, N, C) and label (N, Lmax); fills the lengths' shapes.
void CheckInputs(const Params& p, std::vector<Shape>* in, size_t data, const Shape& d) {
  const std::string& op = p.op()->name;
  WEFT_CHECK(d.ndim() == 3, kShape) << op << ": input 'data' must be 3-D (sequence_length, batch_size, "
                                    << "alphabet_size), got " << d.ToString();
  WEFT_CHECK(d[2] >= 2, kShape) << op << ": input 'data' needs an alphabet of at least 2 (a label and the blank), "
                                << "got " << d[2];
  const Shape& l = (*in)[data + 1];
  if (l.known()) {
    WEFT_CHECK(l.ndim() == 2 && l[0] == d[1], kShape)
        << op << ": input 'label' must be (batch_size, label_sequence_length) with batch_size " << d[1] << ", got "
        << l.ToString();
  }
  size_t next = data + 2;
  if (DataLengths(p)) AssignShape(in, next++, Shape{d[1]}, op + ": input 'data_lengths'");
  if (LabelLengths(p)) AssignShape(in, next++, Shape{d[1]}, op + ": input 'label_lengths'");
}

bool InferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t data) {
  const std::string& op = p.op()->name;
  const DType t = (*in)[data];
  if (t == DType::kUnknown) return false;
  nnx::CheckFloating(t, op, "input 'data'");
  for (size_t i = 0; i < in->size(); ++i)
    if ((*in)[i] == DType::kUnknown) (*in)[i] = t;  // labels and lengths: any dtype, data's by default
  for (size_t i = 0; i < out->size(); ++i) {
    const bool like_data = data == 0 || i == 0;
    AssignType(out, i, like_data ? t : (*in)[i + 1], op + ": output " + std::to_string(i));
  }
  return true;
}

void ForwardCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  const nnm::CtcGeom g = nnm::CtcGeomOf(p, in[0].shape, in[1].shape);
  const std::vector<double> labels = nnx_cpu::ToDoubles(in[1]);
  size_t next = 2;
  std::vector<double> dlen, llen;
  if (DataLengths(p)) dlen = nnx_cpu::ToDoubles(in[next++]);
  if (LabelLengths(p)) llen = nnx_cpu::ToDoubles(in[next++]);
  std::vector<double> work(static_cast<size_t>(g.N * g.Work()));
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "CTCLoss", T, {
    const T* x = in[0].ptr<T>();
    T* loss = out[0].ptr<T>();
    T* grad = out[1].ptr<T>();
    nnm::ForEachIndex(g.N, g.T * g.C * g.S(), [&](int64_t b) {
      nnm::CtcSequence<T, nnx_cpu::Acc<T>>(b, g, x, labels.data(), DataLengths(p) ? dlen.data() : nullptr,
                                            LabelLengths(p) ? llen.data() : nullptr, work.data(), req[0], loss,
                                            req[1], grad);
    });
  })
}

void BackwardCPU(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  const TensorView& grad = in[1];
  const int64_t N = grad.shape[1], C = grad.shape[2];
  if (req[0] != OpReq::kNull) {
    WEFT_NNX_FLOAT_SWITCH(grad.dtype, "_backward_ctc_loss", T, {
      using A = nnx_cpu::Acc<T>;
      const T* og = in[0].ptr<T>();
      const T* gp = grad.ptr<T>();
      T* gx = out[0].ptr<T>();
      nnm::ForEachIndex(grad.Size(), 1, [&](int64_t e) {
        nnm::Put(gx, e, req[0], static_cast<A>(static_cast<A>(gp[e]) * static_cast<A>(og[(e / C) % N])));
      });
    })
  }
  for (size_t i = 1; i < out.size(); ++i)
    if (req[i] != OpReq::kNull && req[i] != OpReq::kAddTo)
      out[i].ZeroFill();
}

[[maybe_unused]] const bool kCTCLossRegistered = [] {
  WEFT_REGISTER_OP(fwd, "CTCLoss").set_compute_gpu(WEFT_GPU(cuda::CTCLossGpu));
  fwd.add_alias("ctc_loss");
  fwd.add_alias("_contrib_CTCLoss");
  fwd.add_alias("_contrib_ctc_loss");
  fwd.describe("Connectionist Temporal Classification Loss.\n\n"
               "The shapes of the inputs and outputs:\n\n"
               "- **data**: `(sequence_length, batch_size, alphabet_size)`\n"
               "- **label**: `(batch_size, label_sequence_length)`\n"
               "- **out**: `(batch_size)`\n\n"
               "The `data` tensor consists of sequences of activation vectors (without applying softmax), with "
               "i-th channel in the last dimension corresponding to i-th label for i between 0 and "
               "alphabet_size-1 (i.e always 0-indexed). Alphabet size should include one additional value reserved "
               "for blank label. When `blank_label` is ``\"first\"``, the ``0``-th channel is be reserved for "
               "activation of blank label, or otherwise if it is \"last\", ``(alphabet_size-1)``-th channel should "
               "be reserved for blank label.\n\n"
               "``label`` is an index matrix of integers. When `blank_label` is ``\"first\"``, the value 0 is then "
               "reserved for blank label, and should not be passed in this matrix. Otherwise, when `blank_label` "
               "is ``\"last\"``, the value `(alphabet_size-1)` is reserved for blank label.\n\n"
               "If a sequence of labels is shorter than *label_sequence_length*, use the special padding value at "
               "the end of the sequence to conform it to the correct length. The padding value is `0` when "
               "`blank_label` is ``\"first\"``, and `-1` otherwise.\n\n"
               "``out`` is a list of CTC loss values, one per example in the batch. The hidden second output is "
               "the gradient of each loss with respect to data.\n\n"
               "See *Connectionist Temporal Classification: Labelling Unsegmented Sequence Data with Recurrent "
               "Neural Networks*, A. Graves *et al*. for more information on the definition and the algorithm.")
      .add_input("data")
      .add_input("label")
      .add_input("data_lengths")
      .add_input("label_lengths");
  AddParams(fwd);
  fwd.set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        CheckInputs(p, in, 0, d);
        AssignShape(out, 0, Shape{d[1]}, "CTCLoss: output 'out'");
        AssignShape(out, 1, d, "CTCLoss: output 'grad'");
        for (const Shape& s : *in)
          if (!s.known()) return false;
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return InferType(p, in, out, 0);
      })
      .set_compute_cpu(ForwardCPU)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> in = {og[0], OutputOf(n, 1)};
        for (size_t i = 1; i < n->inputs.size(); ++i) in.push_back(n->inputs[i]);
        return ViaBackwardOp(n, "_backward_ctc_loss", in);
      });
  fwd.list_input_names = InputNames;
  fwd.num_visible_outputs = 1;
  // MXNet 1.9.1 registers its names under a misspelt key ("FListOutputNAmes"), so
  // nnvm names the outputs by default: <name>_output0 (the loss), <name>_output1.
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output0", "output1"}; };

  WEFT_REGISTER_OP(bwd, "_backward_ctc_loss").set_compute_gpu(WEFT_GPU(cuda::BackwardCTCLossGpu));
  bwd.describe("Gradient of CTCLoss from (out_grad, grad, label[, data_lengths][, label_lengths]): data's "
               "gradient is grad scaled by each sequence's out_grad; the labels and lengths get zeros.")
      .add_input("out_grad")
      .add_input("grad")
      .add_input("label")
      .add_input("data_lengths")
      .add_input("label_lengths");
  AddParams(bwd);
  bwd.set_num_outputs([](const Params& p) { return 2 + (DataLengths(p) ? 1 : 0) + (LabelLengths(p) ? 1 : 0); })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[1];
        if (!d.known()) return false;
        CheckInputs(p, in, 1, d);
        AssignShape(in, 0, Shape{d[1]}, "_backward_ctc_loss: input 'out_grad'");
        AssignShape(out, 0, d, "_backward_ctc_loss: output 0");
        for (size_t i = 1; i < out->size(); ++i) {
          if (!(*in)[i + 1].known()) return false;
          AssignShape(out, i, (*in)[i + 1], "_backward_ctc_loss: output " + std::to_string(i));
        }
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return InferType(p, in, out, 1);
      })
      .set_compute_cpu(BackwardCPU);
  bwd.list_input_names = [](const Params& p) {
    std::vector<std::string> n = {"out_grad", "grad"};
    for (const std::string& s : InputNames(p))
      if (s != "data") n.push_back(s);
    return n;
  };
  bwd.list_output_names = [](const Params& p) {
    std::vector<std::string> n;
    for (const std::string& s : InputNames(p)) n.push_back(s + "_grad");
    return n;
  };
  return true;
}();

}  // namespace
}  // namespace weft
