// Forward kernel of the fused RNN operator: one GEMM projects the whole input
// sequence of a layer and direction, one GEMM per step applies the recurrent
// weights, then the gates are applied elementwise (MXNet/cuDNN gate order).
#include "core/op/seq/rnn_cpu.h"

#include "core/op/seq/rnn_cell.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/random/dropout_cpu.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/random_state.h"
#include "core/base/checked_math.h"

namespace weft {
namespace rnn_cpu {

int64_t RNNGeom::ParamSize() const {
  int64_t n = 0;
  for (int64_t l = 0; l < layers; ++l) {
    const char* what = "RNN: parameter count";
    const int64_t per_dir = CheckedMul(CheckedMul(Gates(), hidden, what),
                                       CheckedAdd(CheckedAdd(LayerInput(l), hidden, what), 2, what), what);
    n = CheckedAdd(n, CheckedMul(dirs, per_dir, what), what);
  }
  return n;
}

int64_t RNNGeom::ReserveSize() const {
  return layers * (2 * seq * batch * dirs * hidden + dirs * seq * batch * StepWidth());
}

int64_t WeightOffset(const RNNGeom& g, int64_t layer, int64_t dir) {
  const int64_t gh = g.Gates() * g.hidden;
  int64_t off = 0;
  for (int64_t l = 0; l < layer; ++l) off += g.dirs * gh * (g.LayerInput(l) + g.hidden);
  return off + dir * gh * (g.LayerInput(layer) + g.hidden);
}

int64_t BiasOffset(const RNNGeom& g, int64_t layer, int64_t dir) {
  const int64_t gh = g.Gates() * g.hidden;
  return WeightOffset(g, g.layers, 0) + (layer * g.dirs + dir) * 2 * gh;
}

int64_t ReserveLayerOffset(const RNNGeom& g, int64_t layer) {
  return layer * (2 * g.seq * g.batch * g.dirs * g.hidden + g.dirs * g.seq * g.batch * g.StepWidth());
}

namespace {

using nn_cpu::Gemm;

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
void ForwardT(const OpContext& ctx, const RNNGeom& g, const T* x, const T* w, const T* hx, const T* cx,
              std::vector<T>* out, std::vector<T>* hy, std::vector<T>* cy, std::vector<T>* res) {
  const int64_t S = g.seq, N = g.batch, H = g.hidden, D = g.dirs, G = g.Gates(), GH = G * H, SW = g.StepWidth();
  const int64_t DH = D * H;
  const bool lstm = g.mode == RNNMode::kLSTM, gru = g.mode == RNNMode::kGRU;
  const bool drop = ctx.is_train && g.p > 0;
  res->assign(static_cast<size_t>(g.ReserveSize()), T(0));
  hy->assign(static_cast<size_t>(g.layers * D * N * H), T(0));
  cy->assign(static_cast<size_t>(g.layers * D * N * H), T(0));
  std::vector<T> xbuf, hbuf(N * H), cbuf(N * H), hp(N * GH);
  for (int64_t l = 0; l < g.layers; ++l) {
    const int64_t in = g.LayerInput(l);
    T* base = res->data() + ReserveLayerOffset(g, l);
    T* Y = base;
    T* mask = base + S * N * DH;
    const T* xin = x;
    if (l > 0) {
      const T* prev = res->data() + ReserveLayerOffset(g, l - 1);
      const T* pmask = prev + S * N * DH;
      xbuf.resize(S * N * DH);
      for (int64_t i = 0; i < S * N * DH; ++i) xbuf[i] = prev[i] * pmask[i];
      xin = xbuf.data();
    }
    for (int64_t d = 0; d < D; ++d) {
      T* st = base + 2 * S * N * DH + d * S * N * SW;
      const T* W = w + WeightOffset(g, l, d);
      const T* U = W + GH * in;
      const T* bi = w + BiasOffset(g, l, d);
      const T* bh = bi + GH;
      if (S * N > 0) Gemm(false, true, S * N, GH, in, xin, in, W, in, T(0), st, SW);
      for (int64_t r = 0; r < S * N; ++r)
        for (int64_t j = 0; j < GH; ++j) st[r * SW + j] += bi[j] + (gru && j >= 2 * H ? T(0) : bh[j]);
      const int64_t sd = (l * D + d) * N * H;
      std::copy(hx + sd, hx + sd + N * H, hbuf.begin());
      if (lstm) std::copy(cx + sd, cx + sd + N * H, cbuf.begin());
      for (int64_t k = 0; k < S; ++k) {
        const int64_t t = d == 0 ? k : S - 1 - k;
        Gemm(false, true, N, GH, H, hbuf.data(), H, U, H, T(0), hp.data(), GH);
        for (int64_t n = 0; n < N; ++n) {
          T* row = st + (t * N + n) * SW;
          const T* hr = hp.data() + n * GH;
          T* h = hbuf.data() + n * H;
          for (int64_t j = 0; j < H; ++j) {
            const T hv = CellForward(g.mode, H, j, row, hr, bh, cbuf.data() + n * H + j, h[j]);
            h[j] = hv;
            Y[(t * N + n) * DH + d * H + j] = hv;
          }
        }
      }
      std::copy(hbuf.begin(), hbuf.end(), hy->begin() + sd);
      if (lstm) std::copy(cbuf.begin(), cbuf.end(), cy->begin() + sd);
    }
    const int64_t nm = S * N * DH;
    if (drop && l + 1 < g.layers) {
      WEFT_CHECK(ctx.rng != nullptr, kInternal) << "RNN: dropout without a random generator";
      nnx_cpu::DropoutMask(ctx.rng->engine(), g.p, TensorView{mask, (sizeof(T) == 8 ? DType::kFloat64 : DType::kFloat32), Shape{nm}});
    } else {
      std::fill(mask, mask + nm, T(1));
    }
  }
  const T* last = res->data() + ReserveLayerOffset(g, g.layers - 1);
  out->assign(last, last + S * N * DH);
}

}  // namespace

void RNNForward(const OpContext& ctx, const RNNGeom& g, const TensorView& x, const TensorView& w,
                const TensorView& hx, const TensorView* cx, OpReq req_out, const TensorView& out, OpReq req_hy,
                const TensorView* hy, OpReq req_cy, const TensorView* cy, OpReq req_reserve,
                const TensorView& reserve) {
  auto run = [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> o, h, c, r;
    ForwardT<T>(ctx, g, x.ptr<T>(), w.ptr<T>(), hx.ptr<T>(), cx ? cx->ptr<T>() : nullptr, &o, &h, &c, &r);
    Store(req_out, o.data(), &out);
    Store(req_hy, h.data(), hy);
    Store(req_cy, c.data(), cy);
    // The reserve is scratch handed to the backward: always overwritten.
    Store(req_reserve == OpReq::kNull ? OpReq::kNull : OpReq::kWriteTo, r.data(), &reserve);
  };
  WEFT_CHECK(x.dtype == DType::kFloat32 || x.dtype == DType::kFloat64, kDType)
      << "RNN: only float32 and float64 are supported, got " << DTypeName(x.dtype);
  if (x.dtype == DType::kFloat64) run(double(0));
  else run(float(0));
}

bool IsLSTM(const Params& p) { return p.GetString("mode") == "lstm"; }

int NumVisible(const Params& p) { return 1 + (p.GetBool("state_outputs") ? (IsLSTM(p) ? 2 : 1) : 0); }

RNNGeom RNNGeometry(const Params& p, const Shape& data) {
  const std::string& op = p.op()->name;
  for (const char* unsupported : {"projection_size", "lstm_state_clip_min", "lstm_state_clip_max"})
    WEFT_CHECK(p.IsNone(unsupported), kInvalidArgument) << op << ": parameter '" << unsupported
                                                        << "' is not supported (only None)";
  WEFT_CHECK(!p.GetBool("use_sequence_length"), kInvalidArgument)
      << op << ": use_sequence_length=True is not supported";
  WEFT_CHECK(data.ndim() == 3, kShape) << op << ": input 'data' must be (seq_len, batch, input_size), got "
                                       << data.ToString();
  RNNGeom g;
  const std::string& m = p.GetString("mode");
  g.mode = m == "rnn_relu" ? RNNMode::kRelu : m == "rnn_tanh" ? RNNMode::kTanh : m == "lstm" ? RNNMode::kLSTM
                                                                                               : RNNMode::kGRU;
  g.seq = data[0], g.batch = data[1], g.input = data[2];
  g.hidden = p.GetInt("state_size");
  g.layers = p.GetInt("num_layers");
  g.dirs = p.GetBool("bidirectional") ? 2 : 1;
  g.p = p.GetFloat("p");
  WEFT_CHECK(g.hidden > 0, kInvalidArgument) << op << ": state_size must be positive, got " << g.hidden;
  WEFT_CHECK(g.layers > 0, kInvalidArgument) << op << ": num_layers must be positive, got " << g.layers;
  WEFT_CHECK(g.p >= 0 && g.p < 1, kInvalidArgument) << op << ": p must be in [0, 1), got " << g.p;
  return g;
}

}  // namespace rnn_cpu
}  // namespace weft
