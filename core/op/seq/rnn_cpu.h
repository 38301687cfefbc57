// Kernels of the fused RNN operator (core/op/seq/rnn.cc): MXNet 1.x's packing of
// the flat parameter vector and the layout of the hidden reserve output that
// carries what the forward computed to _backward_RNN. See Note [RNN reserve].
#pragma once
#include <cstdint>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace rnn_cpu {

enum class RNNMode : int { kRelu = 0, kTanh = 1, kLSTM = 2, kGRU = 3 };

struct RNNGeom {
  RNNMode mode = RNNMode::kLSTM;
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, layers = 1, dirs = 1;
  double p = 0;  // dropout between layers

  int64_t Gates() const { return mode == RNNMode::kLSTM ? 4 : mode == RNNMode::kGRU ? 3 : 1; }
  int64_t LayerInput(int64_t l) const { return l == 0 ? input : dirs * hidden; }
  // MXNet's GetRnnParamSize.
  int64_t ParamSize() const;
  // Per step and direction: gate activations plus the cell (LSTM) or U_n h + b_hn (GRU).
  int64_t StepWidth() const { return Gates() * hidden + (mode == RNNMode::kLSTM || mode == RNNMode::kGRU ? hidden : 0); }
  int64_t ReserveSize() const;
};

// The op's parameters decoded, shared by its declarations (core/op/seq/rnn.cc)
// and its GPU kernels (core/op/seq/rnn.cu) so both size the same work.
// mode is lstm (two states: state and state_cell).
bool IsLSTM(const Params& p);
// Visible outputs: the output, plus the final states with state_outputs (the
// reserve follows them).
int NumVisible(const Params& p);
// The geometry of data (seq_len, batch, input_size) under p, validated with
// shape inference's messages.
RNNGeom RNNGeometry(const Params& p, const Shape& data);

// Offsets into the flat parameter vector (MXNet's packing): all i2h/h2h weights
// layer by layer and direction by direction, then all biases in the same order.
int64_t WeightOffset(const RNNGeom& g, int64_t layer, int64_t dir);  // W_i2h; W_h2h follows it
int64_t BiasOffset(const RNNGeom& g, int64_t layer, int64_t dir);    // b_i2h; b_h2h follows it
// Note [RNN reserve]: per layer, its output Y (seq, batch, dirs*hidden), the
// dropout mask applied to Y before the next layer, then per direction the
// steps (seq, batch, StepWidth()).
int64_t ReserveLayerOffset(const RNNGeom& g, int64_t layer);

// out: (seq, batch, dirs*hidden); hy, cy: may be null; mask drawn with rng when
// dropout applies (is_train and p > 0), else ones.
void RNNForward(const OpContext& ctx, const RNNGeom& g, const TensorView& x, const TensorView& w,
                const TensorView& hx, const TensorView* cx, OpReq req_out, const TensorView& out, OpReq req_hy,
                const TensorView* hy, OpReq req_cy, const TensorView* cy, OpReq req_reserve,
                const TensorView& reserve);

// dhy, dcy may be null (zero); dcx, cx null unless LSTM.
void RNNBackward(const RNNGeom& g, const TensorView& dy, const TensorView* dhy, const TensorView* dcy,
                 const TensorView& x, const TensorView& w, const TensorView& hx, const TensorView* cx,
                 const TensorView& reserve, OpReq req_dx, const TensorView& dx, OpReq req_dw, const TensorView& dw,
                 OpReq req_dhx, const TensorView& dhx, OpReq req_dcx, const TensorView* dcx);

}  // namespace rnn_cpu
}  // namespace weft
