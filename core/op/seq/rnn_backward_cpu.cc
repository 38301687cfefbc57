// Backward kernel of the fused RNN operator: backpropagation through time over
// the gate activations, cells and layer outputs the forward kept in its
// reserve (Note [RNN reserve] in rnn.h). Per step one GEMM carries the
// gradient to the previous hidden state and one accumulates the recurrent
// weight gradient; the input weights and the layer input get one GEMM each.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/base/error.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/seq/rnn_cell.h"
#include "core/op/seq/rnn_cpu.h"

namespace weft {
namespace rnn_cpu {
namespace {

using nn_cpu::Gemm;

template <typename T>
void ColumnSumAdd(const T* m, int64_t rows, int64_t cols, T* acc) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < cols; ++j) acc[j] += m[r * cols + j];
}

template <typename T>
void Store(OpReq req, const T* src, const TensorView* dst) {
  if (dst == nullptr || req == OpReq::kNull) return;
  T* d = dst->ptr<T>();
  const int64_t n = dst->Size();
  if (req == OpReq::kAddTo) {
    for (int64_t i = 0; i < n; ++i) d[i] += src[i];
  } else {
    std::copy(src, src + n, d);
  }
}

template <typename T>
void BackwardT(const RNNGeom& g, const T* dy, const T* dhy, const T* dcy, const T* x, const T* w, const T* hx,
               const T* cx, const T* res, std::vector<T>* dx, std::vector<T>* dw, std::vector<T>* dhx,
               std::vector<T>* dcx) {
  const int64_t S = g.seq, N = g.batch, H = g.hidden, D = g.dirs, G = g.Gates(), GH = G * H, SW = g.StepWidth();
  const int64_t DH = D * H;
  const bool lstm = g.mode == RNNMode::kLSTM, gru = g.mode == RNNMode::kGRU;
  dw->assign(static_cast<size_t>(g.ParamSize()), T(0));
  dhx->assign(static_cast<size_t>(g.layers * D * N * H), T(0));
  dcx->assign(static_cast<size_t>(g.layers * D * N * H), T(0));
  std::vector<T> dY(dy, dy + S * N * DH), xbuf, dX, dGx(S * N * GH), dGh(N * GH), dh(N * H), dc(N * H),
      direct(N * H), hprev(N * H);
  for (int64_t l = g.layers - 1; l >= 0; --l) {
    const int64_t in = g.LayerInput(l);
    const T* base = res + ReserveLayerOffset(g, l);
    const T* Y = base;
    const T* xin = x;
    const T* pmask = nullptr;
    if (l > 0) {
      const T* prev = res + ReserveLayerOffset(g, l - 1);
      pmask = prev + S * N * DH;
      xbuf.resize(S * N * DH);
      for (int64_t i = 0; i < S * N * DH; ++i) xbuf[i] = prev[i] * pmask[i];
      xin = xbuf.data();
    }
    dX.assign(static_cast<size_t>(S * N * in), T(0));
    for (int64_t d = 0; d < D; ++d) {
      const T* st = base + 2 * S * N * DH + d * S * N * SW;
      const int64_t wo = WeightOffset(g, l, d), bo = BiasOffset(g, l, d);
      const T* W = w + wo;
      const T* U = W + GH * in;
      T* dW = dw->data() + wo;
      T* dU = dW + GH * in;
      T* dbi = dw->data() + bo;
      T* dbh = dbi + GH;
      const int64_t sd = (l * D + d) * N * H;
      if (dhy) std::copy(dhy + sd, dhy + sd + N * H, dh.begin());
      else std::fill(dh.begin(), dh.end(), T(0));
      if (lstm && dcy) std::copy(dcy + sd, dcy + sd + N * H, dc.begin());
      else std::fill(dc.begin(), dc.end(), T(0));
      for (int64_t k = S - 1; k >= 0; --k) {
        const int64_t t = d == 0 ? k : S - 1 - k, tp = d == 0 ? t - 1 : t + 1;
        for (int64_t n = 0; n < N; ++n)
          for (int64_t j = 0; j < H; ++j)
            hprev[n * H + j] = k > 0 ? Y[(tp * N + n) * DH + d * H + j] : hx[sd + n * H + j];
        for (int64_t n = 0; n < N; ++n) {
          const T* row = st + (t * N + n) * SW;
          T* gx = dGx.data() + (t * N + n) * GH;
          T* gh = dGh.data() + n * GH;
          for (int64_t j = 0; j < H; ++j) {
            const T dhv = dY[(t * N + n) * DH + d * H + j] + dh[n * H + j];
            const T cp = lstm ? (k > 0 ? st[(tp * N + n) * SW + 4 * H + j] : cx[sd + n * H + j]) : T(0);
            const T hp = gru ? hprev[n * H + j] : T(0);
            CellBackward(g.mode, H, j, row, dhv, cp, hp, gx, gh, lstm ? dc.data() + n * H + j : nullptr,
                         gru ? direct.data() + n * H + j : nullptr);
          }
        }
        Gemm(false, false, N, H, GH, dGh.data(), GH, U, H, T(0), dh.data(), H);
        if (gru)
          for (int64_t i = 0; i < N * H; ++i) dh[i] += direct[i];
        Gemm(true, false, GH, H, N, dGh.data(), GH, hprev.data(), H, T(1), dU, H);
        ColumnSumAdd(dGh.data(), N, GH, dbh);
      }
      if (S * N > 0) {
        Gemm(true, false, GH, in, S * N, dGx.data(), GH, xin, in, T(1), dW, in);
        Gemm(false, false, S * N, in, GH, dGx.data(), GH, W, in, T(1), dX.data(), in);
      }
      ColumnSumAdd(dGx.data(), S * N, GH, dbi);
      std::copy(dh.begin(), dh.end(), dhx->begin() + sd);
      if (lstm) std::copy(dc.begin(), dc.end(), dcx->begin() + sd);
    }
    if (l > 0) {
      for (int64_t i = 0; i < S * N * DH; ++i) dY[i] = dX[i] * pmask[i];
    }
  }
  dx->swap(dX);
}

}  // namespace

void RNNBackward(const RNNGeom& g, const TensorView& dy, const TensorView* dhy, const TensorView* dcy,
                 const TensorView& x, const TensorView& w, const TensorView& hx, const TensorView* cx,
                 const TensorView& reserve, OpReq req_dx, const TensorView& dx, OpReq req_dw, const TensorView& dw,
                 OpReq req_dhx, const TensorView& dhx, OpReq req_dcx, const TensorView* dcx) {
  auto run = [&](auto zero) {
    using T = decltype(zero);
    auto p = [](const TensorView* v) { return v ? v->ptr<T>() : static_cast<T*>(nullptr); };
    std::vector<T> gx, gw, gh, gc;
    BackwardT<T>(g, dy.ptr<T>(), p(dhy), p(dcy), x.ptr<T>(), w.ptr<T>(), hx.ptr<T>(), p(cx), reserve.ptr<T>(),
                 &gx, &gw, &gh, &gc);
    Store(req_dx, gx.data(), &dx);
    Store(req_dw, gw.data(), &dw);
    Store(req_dhx, gh.data(), &dhx);
    Store(req_dcx, gc.data(), dcx);
  };
  WEFT_CHECK(x.dtype == DType::kFloat32 || x.dtype == DType::kFloat64, kDType)
      << "_backward_RNN: only float32 and float64 are supported, got " << DTypeName(x.dtype);
  if (x.dtype == DType::kFloat64) run(double(0));
  else run(float(0));
}

}  // namespace rnn_cpu
}  // namespace weft
