// RNN (MXNet 1.x's fused recurrent layer): rnn_relu, rnn_tanh, lstm and gru,
// stacked and optionally bidirectional, layout TNC, with its backward op
// _backward_RNN. The forward's last output is a hidden reserve (Note [RNN
// reserve] in core/op/seq/rnn_cpu.h) that the backward reads. Kernels: core/op/seq/rnn_cpu.cc and
// core/op/seq/rnn_backward_cpu.cc.
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/seq/rnn_cpu.h"
#include "core/op/common/layer_util.h"
#include "core/opdef/op_def.h"
#include "core/op/seq/rnn_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using rnn_cpu::IsLSTM;
using rnn_cpu::NumVisible;
using rnn_cpu::RNNGeom;

int NumStates(const Params& p) { return IsLSTM(p) ? 2 : 1; }

Shape StateShape(const RNNGeom& g) { return Shape{g.layers * g.dirs, g.batch, g.hidden}; }

// Fills the forward's inputs from data; `at` is where parameters sits in `in`.
void InferInputs(const Params& p, const RNNGeom& g, std::vector<Shape>* in, size_t at, const std::string& op) {
  AssignShape(in, at, Shape{g.ParamSize()}, op + ": input 'parameters'");
  AssignShape(in, at + 1, StateShape(g), op + ": input 'state'");
  if (IsLSTM(p)) AssignShape(in, at + 2, StateShape(g), op + ": input 'state_cell'");
}

OpDef& Declare(const char* name) {
  WEFT_REGISTER_OP(op, name);
  op.add_required_param("state_size", ParamType::kInt, "size of the state for each layer")
      .add_required_param("num_layers", ParamType::kInt, "number of stacked layers")
      .add_param("bidirectional", ParamType::kBool, "False", "whether to use bidirectional recurrent layers")
      .add_enum_param("mode", {"gru", "lstm", "rnn_relu", "rnn_tanh"}, "", "the type of RNN to compute");
  op.params.back().required = true;
  op.add_param("p", ParamType::kFloat, "0", "drop rate of the dropout on the outputs of each RNN layer, except "
                                            "the last layer (training only).")
      .add_param("state_outputs", ParamType::kBool, "False", "Whether to have the states as symbol outputs.")
      .add_optional_param("projection_size", ParamType::kInt, "size of project size (only None is supported)")
      .add_optional_param("lstm_state_clip_min", ParamType::kFloat, "Minimum clip value of LSTM states "
                                                                    "(only None is supported)")
      .add_optional_param("lstm_state_clip_max", ParamType::kFloat, "Maximum clip value of LSTM states "
                                                                    "(only None is supported)")
      .add_param("lstm_state_clip_nan", ParamType::kBool, "False", "Whether to stop NaN from propagating in "
                                                                   "state by clipping it to min/max (accepted, "
                                                                   "no effect without clipping).")
      .add_param("use_sequence_length", ParamType::kBool, "False",
                 "If set to true, this layer takes in an extra input parameter `sequence_length` "
                 "(only False is supported).");
  return op;
}

std::vector<std::string> ForwardInputNames(const Params& p) {
  if (IsLSTM(p)) return {"data", "parameters", "state", "state_cell"};
  return {"data", "parameters", "state"};
}

OpDef& RegisterForward() {
  OpDef& op = Declare("RNN").set_compute_gpu(WEFT_GPU(cuda::RNNGpu));
  op.describe("Applies recurrent layers to input data. Currently, vanilla RNN, LSTM and GRU are implemented, "
              "with both multi-layer and bidirectional support.\n\n"
              "data is (seq_len, batch, input_size); parameters is one flat vector packed as MXNet does (for "
              "each layer and direction the i2h then h2h weights, then all biases in the same order); state "
              "(and state_cell for LSTM) is (num_layers*dirs, batch, state_size). Gates in cuDNN order: LSTM "
              "i, f, g, o; GRU r, z, n with n = tanh(W_n x + b_in + r * (U_n h + b_hn)). The output is "
              "(seq_len, batch, dirs*state_size), plus the final states with state_outputs. float32 and "
              "float64 (OpenBLAS GEMM).")
      .add_input("data")
      .add_input("parameters")
      .add_input("state")
      .add_input("state_cell")
      .set_num_outputs([](const Params& p) { return NumVisible(p) + 1; })
      .set_infer_type(nn::FloatTypeInfer)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const RNNGeom g = rnn_cpu::RNNGeometry(p, (*in)[0]);
        InferInputs(p, g, in, 1, "RNN");
        AssignShape(out, 0, Shape{g.seq, g.batch, g.dirs * g.hidden}, "RNN: output");
        const int v = NumVisible(p);
        for (int i = 1; i < v; ++i) AssignShape(out, i, StateShape(g), "RNN: state output");
        AssignShape(out, v, Shape{g.ReserveSize()}, "RNN: reserve");
        return true;
      })
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const RNNGeom g = rnn_cpu::RNNGeometry(p, in[0].shape);
        const bool lstm = IsLSTM(p);
        const int v = NumVisible(p);
        rnn_cpu::RNNForward(ctx, g, in[0], in[1], in[2], lstm ? &in[3] : nullptr, req[0], out[0],
                            v > 1 ? req[1] : OpReq::kNull, v > 1 ? &out[1] : nullptr,
                            v > 2 ? req[2] : OpReq::kNull, v > 2 ? &out[2] : nullptr, req[v], out[v]);
      });
  op.list_input_names = ForwardInputNames;
  op.list_output_names = [](const Params& p) {
    std::vector<std::string> n{"output"};
    if (p.GetBool("state_outputs")) {
      n.push_back("state");
      if (IsLSTM(p)) n.push_back("state_cell");
    }
    n.push_back("reserve");
    return n;
  };
  op.num_visible_outputs_fn = NumVisible;
  op.needs_rng_fn = [](const Params& p) { return p.GetFloat("p") > 0; };
  op.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    const int v = NumVisible(n->params);
    std::vector<NodeEntry> ins(og.begin(), og.begin() + v);
    for (const NodeEntry& e : n->inputs) ins.push_back(e);
    ins.push_back(OutputOf(n, static_cast<uint32_t>(v)));
    return ViaBackwardOp(n, "_backward_RNN", ins);
  });
  return op;
}

// Inputs: out_grad[, state_grad[, state_cell_grad]], data, parameters, state[, state_cell], reserve.
OpDef& RegisterBackward() {
  OpDef& op = Declare("_backward_RNN").set_compute_gpu(WEFT_GPU(cuda::BackwardRNNGpu));
  op.describe("Gradients of RNN (backpropagation through time) from the output gradients (out_grad, and "
              "the final state gradients with state_outputs), RNN's inputs and its hidden reserve output. "
              "Outputs (data_grad, parameters_grad, state_grad[, state_cell_grad]).")
      .add_input("out_grad")
      .add_input("state_grad")
      .add_input("state_cell_grad")
      .add_input("data")
      .add_input("parameters")
      .add_input("state")
      .add_input("state_cell")
      .add_input("reserve")
      .set_num_outputs([](const Params& p) { return 2 + NumStates(p); })
      .set_infer_type(nn::FloatTypeInfer)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const size_t v = static_cast<size_t>(NumVisible(p));
        AssignShape(in, v, (*out)[0], "_backward_RNN: input 'data'");
        if (!(*in)[v].known()) return false;
        const RNNGeom g = rnn_cpu::RNNGeometry(p, (*in)[v]);
        InferInputs(p, g, in, v + 1, "_backward_RNN");
        AssignShape(in, 0, Shape{g.seq, g.batch, g.dirs * g.hidden}, "_backward_RNN: input 'out_grad'");
        for (size_t i = 1; i < v; ++i) AssignShape(in, i, StateShape(g), "_backward_RNN: state gradient");
        AssignShape(in, in->size() - 1, Shape{g.ReserveSize()}, "_backward_RNN: input 'reserve'");
        AssignShape(out, 0, (*in)[v], "_backward_RNN: output 'data_grad'");
        AssignShape(out, 1, Shape{g.ParamSize()}, "_backward_RNN: output 'parameters_grad'");
        for (size_t i = 2; i < out->size(); ++i) AssignShape(out, i, StateShape(g), "_backward_RNN: state grad");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const int v = NumVisible(p);
        const bool lstm = IsLSTM(p);
        const RNNGeom g = rnn_cpu::RNNGeometry(p, in[v].shape);
        rnn_cpu::RNNBackward(g, in[0], v > 1 ? &in[1] : nullptr, v > 2 ? &in[2] : nullptr, in[v], in[v + 1],
                             in[v + 2], lstm ? &in[v + 3] : nullptr, in.back(), req[0], out[0], req[1], out[1],
                             req[2], out[2], lstm ? req[3] : OpReq::kNull, lstm ? &out[3] : nullptr);
      });
  op.list_input_names = [](const Params& p) {
    std::vector<std::string> n{"out_grad"};
    if (p.GetBool("state_outputs")) {
      n.push_back("state_grad");
      if (IsLSTM(p)) n.push_back("state_cell_grad");
    }
    for (const std::string& s : ForwardInputNames(p)) n.push_back(s);
    n.push_back("reserve");
    return n;
  };
  op.list_output_names = [](const Params& p) {
    std::vector<std::string> n{"data_grad", "parameters_grad", "state_grad"};
    if (IsLSTM(p)) n.push_back("state_cell_grad");
    return n;
  };
  return op;
}

[[maybe_unused]] OpDef& reg_rnn = RegisterForward();
[[maybe_unused]] OpDef& reg_rnn_backward = RegisterBackward();

}  // namespace
}  // namespace weft
