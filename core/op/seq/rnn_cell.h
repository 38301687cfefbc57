// The gate rules of one element of an RNN cell, forward and backward, written
// once (WEFT_HD) for the CPU kernels (rnn_cpu.cc, rnn_backward_cpu.cc) and the
// GPU kernels (rnn.cu), which run them over the same reserve layout (Note
// [RNN reserve] in rnn_cpu.h: per step and sample, the gates' pre-activations
// in, their activations out, and for the LSTM the new cell).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/op/seq/rnn_cpu.h"

namespace weft {
namespace rnn_cpu {

template <typename T>
WEFT_HD inline T CellSigmoid(T v) {
  return T(1) / (T(1) + std::exp(-v));
}

// Hidden unit j of one sample at one step. row: the step's gate slice of the
// reserve (pre-activations x W + b_i in, activations out); hr: U h_prev + b_h
// (the GRU's candidate takes its own b_h part); c: the unit's cell state (LSTM,
// updated); hprev: h_prev[j] (GRU). Returns the new h[j].
template <typename T>
WEFT_HD inline T CellForward(RNNMode mode, int64_t H, int64_t j, T* row, const T* hr, const T* bh, T* c, T hprev) {
  if (mode == RNNMode::kLSTM) {
    const T i = CellSigmoid(row[j] + hr[j]), f = CellSigmoid(row[H + j] + hr[H + j]);
    const T gg = std::tanh(row[2 * H + j] + hr[2 * H + j]), o = CellSigmoid(row[3 * H + j] + hr[3 * H + j]);
    const T cn = f * *c + i * gg;
    row[j] = i, row[H + j] = f, row[2 * H + j] = gg, row[3 * H + j] = o, row[4 * H + j] = cn;
    *c = cn;
    return o * std::tanh(cn);
  }
  if (mode == RNNMode::kGRU) {
    const T r = CellSigmoid(row[j] + hr[j]), z = CellSigmoid(row[H + j] + hr[H + j]);
    const T hn = hr[2 * H + j] + bh[2 * H + j];
    const T nn = std::tanh(row[2 * H + j] + r * hn);
    row[j] = r, row[H + j] = z, row[2 * H + j] = nn, row[3 * H + j] = hn;
    return (T(1) - z) * nn + z * hprev;
  }
  const T a = row[j] + hr[j];
  const T hv = mode == RNNMode::kTanh ? std::tanh(a) : (a < T(0) ? T(0) : a);
  row[j] = hv;
  return hv;
}

// The backward of CellForward for unit j: dhv is h[j]'s gradient; row the
// reserve's activations; cp the previous cell (LSTM), hp the previous h[j]
// (GRU). Writes the gates' gradients for the input GEMM (gx) and for the
// recurrent one (g), both rows of GH, and updates *dc (the LSTM cell's
// gradient) or writes *direct (the GRU's direct share of h_prev's gradient).
template <typename T>
WEFT_HD inline void CellBackward(RNNMode mode, int64_t H, int64_t j, const T* row, T dhv, T cp, T hp, T* gx, T* g,
                                 T* dc, T* direct) {
  if (mode == RNNMode::kLSTM) {
    const T i = row[j], f = row[H + j], gg = row[2 * H + j], o = row[3 * H + j], c = row[4 * H + j];
    const T tc = std::tanh(c);
    const T dct = *dc + dhv * o * (T(1) - tc * tc);
    gx[j] = dct * gg * i * (T(1) - i);
    gx[H + j] = dct * cp * f * (T(1) - f);
    gx[2 * H + j] = dct * i * (T(1) - gg * gg);
    gx[3 * H + j] = dhv * tc * o * (T(1) - o);
    *dc = dct * f;
    for (int q = 0; q < 4; ++q) g[q * H + j] = gx[q * H + j];
  } else if (mode == RNNMode::kGRU) {
    const T r = row[j], z = row[H + j], nn = row[2 * H + j], hn = row[3 * H + j];
    const T dnp = dhv * (T(1) - z) * (T(1) - nn * nn);
    gx[j] = g[j] = dnp * hn * r * (T(1) - r);
    gx[H + j] = g[H + j] = dhv * (hp - nn) * z * (T(1) - z);
    gx[2 * H + j] = dnp;
    g[2 * H + j] = dnp * r;
    *direct = dhv * z;
  } else {
    const T a = row[j];
    gx[j] = g[j] = mode == RNNMode::kTanh ? dhv * (T(1) - a * a) : (a > T(0) ? dhv : T(0));
  }
}

}  // namespace rnn_cpu
}  // namespace weft
