// GPU kernels of the fused RNN operator and _backward_RNN (core/op/seq/rnn.cc):
// the structure of core/op/seq/rnn_cpu.cc and rnn_backward.cc -- per layer and
// direction one GEMM projects the whole sequence, then a host loop over the
// time steps enqueues one recurrent GEMM and one gate kernel per step on the
// op's stream. The host loop only computes pointers; it never reads device
// data. Parameter packing, gate order and the reserve layout are the CPU's
// (Note [RNN reserve] in core/op/seq/rnn_cpu.h), so reserves pass between devices.
#include <algorithm>
#include <string>
#include <vector>

#include "core/op/seq/rnn_cell.h"
#include "core/op/seq/rnn_cpu.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/random_state.h"

namespace weft {
namespace cuda {
namespace {

using rnn_cpu::RNNGeom;
using rnn_cpu::RNNMode;

using rnn_cpu::IsLSTM;
using rnn_cpu::NumVisible;

// dst[i] (req)= src[i].
template <typename T>
void StoreTo(const OpContext& ctx, const T* src, int64_t n, OpReq req, T* dst) {
  if (req == OpReq::kNull || dst == nullptr) return;
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { Assign(dst, i, req, src[i]); });
}

template <typename T>
void Fill(const OpContext& ctx, T* dst, int64_t n, T v) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { dst[i] = v; });
}

// z[i] = a[i] * b[i] (a layer's input: the previous output times its dropout mask).
template <typename T>
void Multiply(const OpContext& ctx, const T* a, const T* b, int64_t n, T* z) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { z[i] = a[i] * b[i]; });
}

// Dropout mask between layers: 1/keep with probability keep, else 0. The
// uniform draw is a hash of (seed, index) with the seed taken from the
// device's generator on the host, so one seed reproduces the mask (the draws
// differ from the CPU's, whose generator runs sequentially).
WEFT_HD inline uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <typename T>
void DropoutMask(const OpContext& ctx, uint64_t seed, double p, int64_t n, T* mask) {
  const double keep = 1.0 - p;
  const T scale = keep > 0 ? static_cast<T>(1.0 / keep) : T(0);
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    const uint64_t h = Mix64(seed + 0x9E3779B97F4A7C15ull * (static_cast<uint64_t>(i) + 1));
    const double u = static_cast<double>(h >> 11) * 0x1.0p-53;  // [0, 1)
    mask[i] = u < keep ? scale : T(0);
  });
}

// st[r, j] += b_i2h[j] + b_h2h[j] over the projected sequence; GRU's
// candidate h2h bias stays apart (it is inside r * (U_n h + b_hn)).
template <typename T>
void AddGateBias(const OpContext& ctx, T* st, int64_t rows, int64_t GH, int64_t SW, int64_t H, bool gru, const T* bi,
                 const T* bh) {
  Launch(ctx, rows * GH, [=] WEFT_HD(int64_t idx) {
    const int64_t j = idx % GH, r = idx / GH;
    st[r * SW + j] += bi[j] + (gru && j >= 2 * H ? T(0) : bh[j]);
  });
}

// One time step's gates for every (n, j): row = the step's slice of the
// reserve (pre-activations in, activations out), hr = U h. Writes h, c and Y.
template <typename T>
void StepForward(const OpContext& ctx, RNNMode mode, int64_t N, int64_t H, int64_t SW, int64_t GH, int64_t DH,
                 T* st_t, const T* hp, const T* bh, T* hbuf, T* cbuf, T* Y_t) {
  Launch(ctx, N * H, [=] WEFT_HD(int64_t idx) {
    const int64_t j = idx % H, n = idx / H;
    T* row = st_t + n * SW;
    const T* hr = hp + n * GH;
    const T hv = rnn_cpu::CellForward(mode, H, j, row, hr, bh, cbuf + idx, hbuf[idx]);
    hbuf[idx] = hv;
    Y_t[n * DH + j] = hv;
  });
}

template <typename T>
void ForwardT(const OpContext& ctx, const RNNGeom& g, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out, int nvis, bool lstm) {
  const int64_t S = g.seq, N = g.batch, H = g.hidden, D = g.dirs, GH = g.Gates() * H, SW = g.StepWidth();
  const int64_t DH = D * H, LDNH = g.layers * D * N * H;
  const bool gru = g.mode == RNNMode::kGRU;
  const bool drop = ctx.is_train && g.p > 0;
  const T* x = in[0].ptr<T>();
  const T* w = in[1].ptr<T>();
  const T* hx = in[2].ptr<T>();
  const T* cx = lstm ? in[3].ptr<T>() : nullptr;
  const OpReq req_res = req[nvis];
  // Scratch: the layer input, h, c, U h, the final states, and the reserve
  // itself when the op is not asked for it.
  const int64_t own_res = req_res == OpReq::kNull ? g.ReserveSize() : 0;
  T* xbuf = static_cast<T*>(Scratch(ctx, sizeof(T) * static_cast<size_t>(S * N * DH + 2 * N * H + N * GH + 2 * LDNH + own_res)));
  T* hbuf = xbuf + S * N * DH;
  T* cbuf = hbuf + N * H;
  T* hp = cbuf + N * H;
  T* hy = hp + N * GH;
  T* cy = hy + LDNH;
  T* res = own_res > 0 ? cy + LDNH : out[nvis].ptr<T>();
  gpu::MemsetAsync(res, 0, sizeof(T) * static_cast<size_t>(g.ReserveSize()), StreamOf(ctx));
  gpu::MemsetAsync(cy, 0, sizeof(T) * static_cast<size_t>(LDNH), StreamOf(ctx));
  for (int64_t l = 0; l < g.layers; ++l) {
    const int64_t in_dim = g.LayerInput(l);
    T* base = res + rnn_cpu::ReserveLayerOffset(g, l);
    T* Y = base;
    T* mask = base + S * N * DH;
    const T* xin = x;
    if (l > 0) {
      const T* prev = res + rnn_cpu::ReserveLayerOffset(g, l - 1);
      Multiply(ctx, prev, prev + S * N * DH, S * N * DH, xbuf);
      xin = xbuf;
    }
    for (int64_t d = 0; d < D; ++d) {
      T* st = base + 2 * S * N * DH + d * S * N * SW;
      const T* W = w + rnn_cpu::WeightOffset(g, l, d);
      const T* U = W + GH * in_dim;
      const T* bi = w + rnn_cpu::BiasOffset(g, l, d);
      const T* bh = bi + GH;
      DenseGemm(ctx, false, true, S * N, GH, in_dim, xin, in_dim, W, in_dim, T(0), st, SW);
      AddGateBias(ctx, st, S * N, GH, SW, H, gru, bi, bh);
      const int64_t sd = (l * D + d) * N * H;
      gpu::MemcpyAsync(hbuf, hx + sd, sizeof(T) * static_cast<size_t>(N * H), StreamOf(ctx));
      if (lstm) gpu::MemcpyAsync(cbuf, cx + sd, sizeof(T) * static_cast<size_t>(N * H), StreamOf(ctx));
      for (int64_t k = 0; k < S; ++k) {
        const int64_t t = d == 0 ? k : S - 1 - k;
        DenseGemm(ctx, false, true, N, GH, H, hbuf, H, U, H, T(0), hp, GH);
        StepForward(ctx, g.mode, N, H, SW, GH, DH, st + t * N * SW, hp, bh, hbuf, cbuf, Y + t * N * DH + d * H);
      }
      gpu::MemcpyAsync(hy + sd, hbuf, sizeof(T) * static_cast<size_t>(N * H), StreamOf(ctx));
      if (lstm) gpu::MemcpyAsync(cy + sd, cbuf, sizeof(T) * static_cast<size_t>(N * H), StreamOf(ctx));
    }
    if (drop && l + 1 < g.layers) {
      WEFT_CHECK(ctx.rng != nullptr, kInternal) << "RNN: dropout without a random generator";
      DropoutMask(ctx, static_cast<uint64_t>(ctx.rng->engine()()), g.p, S * N * DH, mask);
    } else {
      Fill(ctx, mask, S * N * DH, T(1));
    }
  }
  StoreTo(ctx, static_cast<const T*>(res + rnn_cpu::ReserveLayerOffset(g, g.layers - 1)), S * N * DH, req[0],
          out[0].ptr<T>());
  if (nvis > 1) StoreTo(ctx, static_cast<const T*>(hy), LDNH, req[1], out[1].ptr<T>());
  if (nvis > 2) StoreTo(ctx, static_cast<const T*>(cy), LDNH, req[2], out[2].ptr<T>());
}

// One time step backward for every (n, j) (core/op/seq/rnn_backward_cpu.cc): writes the
// gate gradients gx (input side, kept for the sequence) and gh (recurrent
// side), the cell gradient dc and, for GRU, the direct path dh * z.
// hprev = the previous h (row stride ldh), cprev = the previous cell (SW or H).
template <typename T>
void StepBackward(const OpContext& ctx, RNNMode mode, int64_t N, int64_t H, int64_t SW, int64_t GH, int64_t DH,
                  const T* row_t, const T* dY_t, const T* dh, T* dc, const T* cprev, int64_t ldc, const T* hprev,
                  int64_t ldh, T* gx_t, T* gh, T* direct) {
  Launch(ctx, N * H, [=] WEFT_HD(int64_t idx) {
    const int64_t j = idx % H, n = idx / H;
    const T* row = row_t + n * SW;
    T* gx = gx_t + n * GH;
    T* g = gh + n * GH;
    const T dhv = dY_t[n * DH + j] + dh[idx];
    const T cp = mode == RNNMode::kLSTM ? cprev[n * ldc + j] : T(0);
    const T hp = mode == RNNMode::kGRU ? hprev[n * ldh + j] : T(0);
    rnn_cpu::CellBackward(mode, H, j, row, dhv, cp, hp, gx, g, mode == RNNMode::kLSTM ? dc + idx : nullptr,
                          mode == RNNMode::kGRU ? direct + idx : nullptr);
  });
}

// acc[j] += m[r, j] for r in order (the CPU's ColumnSumAdd).
template <typename T>
void ColumnSumAdd(const OpContext& ctx, const T* m, int64_t rows, int64_t cols, T* acc) {
  Launch(ctx, cols, [=] WEFT_HD(int64_t j) {
    for (int64_t r = 0; r < rows; ++r) acc[j] += m[r * cols + j];
  });
}

template <typename T>
void AddInto(const OpContext& ctx, const T* src, int64_t n, T* dst) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) { dst[i] += src[i]; });
}

// Inputs: out_grad[, state_grad[, state_cell_grad]], data, parameters, state[, state_cell], reserve.
template <typename T>
void BackwardT(const OpContext& ctx, const RNNGeom& g, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out, int nvis, bool lstm) {
  const int64_t S = g.seq, N = g.batch, H = g.hidden, D = g.dirs, GH = g.Gates() * H, SW = g.StepWidth();
  const int64_t DH = D * H, LDNH = g.layers * D * N * H, SNmax = S * N * std::max(g.input, DH);
  const bool gru = g.mode == RNNMode::kGRU;
  const T* dy = in[0].ptr<T>();
  const T* dhy = nvis > 1 ? in[1].ptr<T>() : nullptr;
  const T* dcy = nvis > 2 ? in[2].ptr<T>() : nullptr;
  const T* x = in[nvis].ptr<T>();
  const T* w = in[nvis + 1].ptr<T>();
  const T* hx = in[nvis + 2].ptr<T>();
  const T* cx = lstm ? in[nvis + 3].ptr<T>() : nullptr;
  const T* res = in.back().ptr<T>();
  // Scratch: dY, the layer input, dX, the gate gradients of the sequence and
  // of a step, the direct GRU path, and the parameter / state gradients.
  const size_t total = static_cast<size_t>(S * N * DH * 2 + SNmax + S * N * GH + N * GH + N * H + g.ParamSize() +
                                           2 * LDNH);
  T* dY = static_cast<T*>(Scratch(ctx, sizeof(T) * total));
  T* xbuf = dY + S * N * DH;
  T* dX = xbuf + S * N * DH;
  T* dGx = dX + SNmax;
  T* dGh = dGx + S * N * GH;
  T* direct = dGh + N * GH;
  T* dw = direct + N * H;
  T* dhx = dw + g.ParamSize();
  T* dcx = dhx + LDNH;
  const gpu::Stream stream = StreamOf(ctx);
  gpu::MemcpyAsync(dY, dy, sizeof(T) * static_cast<size_t>(S * N * DH), stream);
  gpu::MemsetAsync(dw, 0, sizeof(T) * static_cast<size_t>(g.ParamSize()), stream);
  gpu::MemsetAsync(direct, 0, sizeof(T) * static_cast<size_t>(N * H), stream);
  if (dhy != nullptr) gpu::MemcpyAsync(dhx, dhy, sizeof(T) * static_cast<size_t>(LDNH), stream);
  else gpu::MemsetAsync(dhx, 0, sizeof(T) * static_cast<size_t>(LDNH), stream);
  if (lstm && dcy != nullptr) gpu::MemcpyAsync(dcx, dcy, sizeof(T) * static_cast<size_t>(LDNH), stream);
  else gpu::MemsetAsync(dcx, 0, sizeof(T) * static_cast<size_t>(LDNH), stream);
  for (int64_t l = g.layers - 1; l >= 0; --l) {
    const int64_t in_dim = g.LayerInput(l);
    const T* base = res + rnn_cpu::ReserveLayerOffset(g, l);
    const T* Y = base;
    const T* xin = x;
    const T* pmask = nullptr;
    if (l > 0) {
      const T* prev = res + rnn_cpu::ReserveLayerOffset(g, l - 1);
      pmask = prev + S * N * DH;
      Multiply(ctx, prev, pmask, S * N * DH, xbuf);
      xin = xbuf;
    }
    gpu::MemsetAsync(dX, 0, sizeof(T) * static_cast<size_t>(S * N * in_dim), stream);
    for (int64_t d = 0; d < D; ++d) {
      const T* st = base + 2 * S * N * DH + d * S * N * SW;
      const int64_t wo = rnn_cpu::WeightOffset(g, l, d), bo = rnn_cpu::BiasOffset(g, l, d);
      const T* W = w + wo;
      const T* U = W + GH * in_dim;
      T* dW = dw + wo;
      T* dU = dW + GH * in_dim;
      T* dbi = dw + bo;
      T* dbh = dbi + GH;
      const int64_t sd = (l * D + d) * N * H;
      T* dh = dhx + sd;  // carried backwards through time; ends as this direction's dhx
      T* dc = dcx + sd;
      for (int64_t k = S - 1; k >= 0; --k) {
        const int64_t t = d == 0 ? k : S - 1 - k, tp = d == 0 ? t - 1 : t + 1;
        // The previous step's h and c: the reserve's Y and cells, or the initial state.
        const T* hprev = k > 0 ? Y + tp * N * DH + d * H : hx + sd;
        const int64_t ldh = k > 0 ? DH : H;
        const T* cprev = lstm ? (k > 0 ? st + tp * N * SW + 4 * H : cx + sd) : nullptr;
        const int64_t ldc = k > 0 ? SW : H;
        StepBackward(ctx, g.mode, N, H, SW, GH, DH, st + t * N * SW, static_cast<const T*>(dY + t * N * DH + d * H),
                     static_cast<const T*>(dh), dc, cprev, ldc, hprev, ldh, dGx + t * N * GH, dGh, direct);
        DenseGemm(ctx, false, false, N, H, GH, dGh, GH, U, H, T(0), dh, H);
        if (gru) AddInto(ctx, static_cast<const T*>(direct), N * H, dh);
        DenseGemm(ctx, true, false, GH, H, N, dGh, GH, hprev, ldh, T(1), dU, H);
        ColumnSumAdd(ctx, static_cast<const T*>(dGh), N, GH, dbh);
      }
      DenseGemm(ctx, true, false, GH, in_dim, S * N, dGx, GH, xin, in_dim, T(1), dW, in_dim);
      DenseGemm(ctx, false, false, S * N, in_dim, GH, dGx, GH, W, in_dim, T(1), dX, in_dim);
      ColumnSumAdd(ctx, static_cast<const T*>(dGx), S * N, GH, dbi);
    }
    if (l > 0) Multiply(ctx, static_cast<const T*>(dX), pmask, S * N * DH, dY);
  }
  StoreTo(ctx, static_cast<const T*>(dX), S * N * g.input, req[0], out[0].ptr<T>());
  StoreTo(ctx, static_cast<const T*>(dw), g.ParamSize(), req[1], out[1].ptr<T>());
  StoreTo(ctx, static_cast<const T*>(dhx), LDNH, req[2], out[2].ptr<T>());
  if (lstm) StoreTo(ctx, static_cast<const T*>(dcx), LDNH, req[3], out[3].ptr<T>());
}

void RNN(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  const RNNGeom g = rnn_cpu::RNNGeometry(p, in[0].shape);
  const int nvis = NumVisible(p);
  const bool lstm = IsLSTM(p);
  WEFT_GPU_F32_F64_SWITCH(in[0].dtype, "RNN", T, { ForwardT<T>(ctx, g, in, req, out, nvis, lstm); });
}

void RNNBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int nvis = NumVisible(p);
  const RNNGeom g = rnn_cpu::RNNGeometry(p, in[nvis].shape);
  const bool lstm = IsLSTM(p);
  WEFT_GPU_F32_F64_SWITCH(in[0].dtype, "_backward_RNN", T, { BackwardT<T>(ctx, g, in, req, out, nvis, lstm); });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(RNNGpu, RNN)  // RNN
WEFT_GPU_KERNEL_EXPORT(BackwardRNNGpu, RNNBackward)  // _backward_RNN

}  // namespace cuda
}  // namespace weft
