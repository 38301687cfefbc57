// LRN forward and backward. Types: Note [NN kernel arithmetic].
//
// Note [LRN tiles]
// A sample is (C, inner) row-major, so one channel's values at consecutive
// positions are contiguous. Work is split into tiles of up to kMaxTile
// consecutive positions of one sample; a tile walks the channels and sums the
// window with inner loops over the tile's positions, which vectorise. Windows
// are summed directly (nsize terms) rather than as a running sum: subtracting
// squares that left the window could leave a tiny negative sum, and with
// knorm = 0 a NaN where MXNet gives a finite value.
#include "core/op/spatial/lrn_cpu.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

constexpr int64_t kMaxTile = 256;

struct Tiling {
  int64_t tile = 1, per_sample = 0;
};

// Smaller tiles for many channels keep the backward buffers (2 x C x tile) small.
Tiling TilesOf(const LRNArgs& a) {
  Tiling t;
  t.tile = std::max<int64_t>(8, std::min<int64_t>(kMaxTile, 16384 / std::max<int64_t>(a.channels, 1)));
  t.tile = std::min(t.tile, std::max<int64_t>(a.inner, 1));
  t.per_sample = (a.inner + t.tile - 1) / t.tile;
  return t;
}

template <typename T>
void Forward(const LRNArgs& a, const T* x, OpReq req_y, T* y, OpReq req_norm, T* norm) {
  using A = Acc<T>;
  const int64_t C = a.channels, inner = a.inner, half = a.nsize / 2;
  const A salpha = static_cast<A>(a.alpha / static_cast<double>(a.nsize));
  const A knorm = static_cast<A>(a.knorm), neg_beta = static_cast<A>(-a.beta);
  const Tiling t = TilesOf(a);
  ParallelFor(a.batch * t.per_sample, C * (a.nsize + 16) * t.tile, [&](int64_t b, int64_t e) {
    // Every norm of the tile first, then the outputs: y[c] depends on x[c]
    // alone once the norms are known, so y may be x's memory (in-place).
    std::vector<A> acc(static_cast<size_t>(t.tile));
    std::vector<A> nbuf(static_cast<size_t>(C * t.tile));
    for (int64_t item = b; item < e; ++item) {
      const int64_t n = item / t.per_sample, s0 = (item % t.per_sample) * t.tile;
      const int64_t len = std::min(t.tile, inner - s0);
      const int64_t base = n * C * inner + s0;
      for (int64_t c = 0; c < C; ++c) {
        std::fill(acc.begin(), acc.begin() + len, A(0));
        const int64_t lo = std::max<int64_t>(0, c - half), hi = std::min(C - 1, c + half);
        for (int64_t w = lo; w <= hi; ++w) {
          const T* xw = x + base + w * inner;
          for (int64_t l = 0; l < len; ++l) {
            const A v = static_cast<A>(xw[l]);
            acc[static_cast<size_t>(l)] += v * v;
          }
        }
        for (int64_t l = 0; l < len; ++l)
          nbuf[static_cast<size_t>(c * t.tile + l)] = knorm + salpha * acc[static_cast<size_t>(l)];
      }
      for (int64_t c = 0; c < C; ++c) {
        const int64_t off = base + c * inner;
        for (int64_t l = 0; l < len; ++l) {
          const A nv = nbuf[static_cast<size_t>(c * t.tile + l)];
          Store(req_norm, norm + off + l, nv);
          Store(req_y, y + off + l, static_cast<A>(x[off + l]) * std::pow(nv, neg_beta));
        }
      }
    }
  });
}

template <typename T>
void Backward(const LRNArgs& a, const T* gy, const T* x, const T* norm, OpReq req, T* gx) {
  using A = Acc<T>;
  const int64_t C = a.channels, inner = a.inner, half = a.nsize / 2;
  const A neg_beta = static_cast<A>(-a.beta);
  const A coef = static_cast<A>(2.0 * a.alpha * a.beta / static_cast<double>(a.nsize));
  const Tiling t = TilesOf(a);
  ParallelFor(a.batch * t.per_sample, C * (a.nsize + 40) * t.tile, [&](int64_t b, int64_t e) {
    // direct[c][l] = gy * norm^-beta; scaled[c][l] = gy * x * norm^(-beta-1).
    std::vector<A> direct(static_cast<size_t>(C * t.tile)), scaled(static_cast<size_t>(C * t.tile));
    std::vector<A> acc(static_cast<size_t>(t.tile));
    for (int64_t item = b; item < e; ++item) {
      const int64_t n = item / t.per_sample, s0 = (item % t.per_sample) * t.tile;
      const int64_t len = std::min(t.tile, inner - s0);
      const int64_t base = n * C * inner + s0;
      // Every read of gy happens before gx is written, so gx may alias gy.
      for (int64_t c = 0; c < C; ++c) {
        const int64_t off = base + c * inner;
        A* d = direct.data() + c * t.tile;
        A* s = scaled.data() + c * t.tile;
        for (int64_t l = 0; l < len; ++l) {
          const A nv = static_cast<A>(norm[off + l]);
          const A g = static_cast<A>(gy[off + l]) * std::pow(nv, neg_beta);
          d[l] = g;
          s[l] = g * static_cast<A>(x[off + l]) / nv;
        }
      }
      for (int64_t c = 0; c < C; ++c) {
        std::fill(acc.begin(), acc.begin() + len, A(0));
        const int64_t lo = std::max<int64_t>(0, c - half), hi = std::min(C - 1, c + half);
        for (int64_t w = lo; w <= hi; ++w) {
          const A* s = scaled.data() + w * t.tile;
          for (int64_t l = 0; l < len; ++l) acc[static_cast<size_t>(l)] += s[l];
        }
        const int64_t off = base + c * inner;
        const A* d = direct.data() + c * t.tile;
        for (int64_t l = 0; l < len; ++l)
          Store(req, gx + off + l, d[l] - coef * static_cast<A>(x[off + l]) * acc[static_cast<size_t>(l)]);
      }
    }
  });
}

}  // namespace

void LRNForward(const LRNArgs& a, const TensorView& x, OpReq req_y, const TensorView& y, OpReq req_norm,
                const TensorView& norm) {
  if ((req_y == OpReq::kNull && req_norm == OpReq::kNull) || x.Size() == 0) return;
  switch (x.dtype) {
    case DType::kFloat32: Forward<float>(a, x.ptr<float>(), req_y, y.ptr<float>(), req_norm, norm.ptr<float>()); break;
    case DType::kFloat64:
      Forward<double>(a, x.ptr<double>(), req_y, y.ptr<double>(), req_norm, norm.ptr<double>());
      break;
    default: WEFT_THROW(kDType) << "LRN: only float32 and float64 are supported, got " << DTypeName(x.dtype);
  }
}

void LRNBackward(const LRNArgs& a, const TensorView& gy, const TensorView& x, const TensorView& norm, OpReq req,
                 const TensorView& gx) {
  if (req == OpReq::kNull || gx.Size() == 0) return;
  switch (x.dtype) {
    case DType::kFloat32:
      Backward<float>(a, gy.ptr<float>(), x.ptr<float>(), norm.ptr<float>(), req, gx.ptr<float>());
      break;
    case DType::kFloat64:
      Backward<double>(a, gy.ptr<double>(), x.ptr<double>(), norm.ptr<double>(), req, gx.ptr<double>());
      break;
    default:
      WEFT_THROW(kDType) << "_backward_LRN: only float32 and float64 are supported, got " << DTypeName(x.dtype);
  }
}

LRNArgs LRNArgsOf(const Params& p, const Shape& data, const char* what) {
  const std::string& op = p.op()->name;
  const int64_t nsize = p.GetInt("nsize");
  WEFT_CHECK(nsize >= 1 && nsize % 2 == 1, kInvalidArgument)
      << op << ": parameter 'nsize' must be an odd number >= 1, got " << nsize;
  WEFT_CHECK(data.ndim() >= 3, kShape) << op << ": input '" << what
                                       << "' must have at least 3 dimensions (batch, channel, spatial...; "
                                          "MXNet: 4-D NCHW), got shape "
                                       << data.ToString();
  LRNArgs a;
  a.batch = data[0];
  a.channels = data[1];
  a.inner = data.ProdRange(2, data.ndim());
  a.alpha = p.GetFloat("alpha");
  a.beta = p.GetFloat("beta");
  a.knorm = p.GetFloat("knorm");
  a.nsize = nsize;
  return a;
}

}  // namespace nnx_cpu
}  // namespace weft
