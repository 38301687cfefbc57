// Layer + activation kernels (fused_nn.h).
#include "core/op/fused/fused_nn_cpu.h"

#include <algorithm>
#include <vector>

#include "core/base/error.h"
#include "core/op/op_util.h"

namespace weft {
namespace fused_cpu {
namespace {

// Elements per epilogue block: a few pages, so the bias add and the
// activation read the block from L1/L2.
constexpr int64_t kEpilogueBlock = 4096;

// Work per element of each activation, for ParallelFor (as in activation.cc).
int64_t ActCost(nnx_cpu::ActKind act) {
  switch (act) {
    case nnx_cpu::ActKind::kReLU: return 1;
    case nnx_cpu::ActKind::kSoftSign: return 2;
    case nnx_cpu::ActKind::kSigmoid: case nnx_cpu::ActKind::kTanh: return 8;
    default: return 12;
  }
}

// Rows [0, rows) of `cols` elements of t: t[r, j] += b[j] (when b is set),
// then y (req)= act(t), block by block. t may be y (req kWriteTo).
template <typename T>
void BiasActRows(nnx_cpu::ActKind act, const T* b, int64_t rows, int64_t cols, T* t, OpReq req, T* y, DType dt) {
  const int64_t rows_per_block = std::max<int64_t>(1, kEpilogueBlock / std::max<int64_t>(cols, 1));
  ParallelFor(rows, cols * (ActCost(act) + 1), [&](int64_t lo, int64_t hi) {
    TensorView src{nullptr, dt, Shape{0}}, dst{nullptr, dt, Shape{0}};
    for (int64_t r0 = lo; r0 < hi; r0 += rows_per_block) {
      const int64_t r1 = std::min(hi, r0 + rows_per_block);
      T* block = t + r0 * cols;
      if (b != nullptr)
        for (int64_t r = r0; r < r1; ++r) {
          T* row = t + r * cols;
          for (int64_t j = 0; j < cols; ++j) row[j] += b[j];
        }
      src.data = block;
      dst.data = y + r0 * cols;
      src.shape[0] = dst.shape[0] = (r1 - r0) * cols;
      nnx_cpu::ActivationForward(act, src, req, dst);
    }
  });
}

template <typename T>
void FCActT(const nn_cpu::FCGeom& g, nnx_cpu::ActKind act, const TensorView& x, const TensorView& w,
            const TensorView* b, OpReq req, const TensorView& y) {
  std::vector<T> scratch;
  TensorView target = y;
  if (req == OpReq::kAddTo) {  // y + act(...): the layer's result goes to scratch first
    scratch.resize(static_cast<size_t>(y.Size()));
    target.data = scratch.data();
  }
  nn_cpu::FCForward(g, x, w, nullptr, OpReq::kWriteTo, target);
  BiasActRows<T>(act, b != nullptr ? b->ptr<T>() : nullptr, g.rows, g.hidden, target.ptr<T>(),
                 req == OpReq::kAddTo ? OpReq::kAddTo : OpReq::kWriteTo, y.ptr<T>(), y.dtype);
}

}  // namespace

void FCActForward(const nn_cpu::FCGeom& g, nnx_cpu::ActKind act, const TensorView& x, const TensorView& w,
                  const TensorView* b, OpReq req, const TensorView& y) {
  if (req == OpReq::kNull) return;
  switch (y.dtype) {
    case DType::kFloat32: return FCActT<float>(g, act, x, w, b, req, y);
    case DType::kFloat64: return FCActT<double>(g, act, x, w, b, req, y);
    default:
      WEFT_THROW(kDType) << "_fused_fully_connected_act: only float32 and float64 are supported, got "
                         << DTypeName(y.dtype);
  }
}

void ActivationEpilogue(nnx_cpu::ActKind act, const TensorView* t, OpReq req, const TensorView& y) {
  if (req == OpReq::kNull) return;
  WEFT_CHECK(t != nullptr || req != OpReq::kAddTo, kInternal) << "ActivationEpilogue: kAddTo needs a scratch array";
  const OpReq mode = req == OpReq::kAddTo ? OpReq::kAddTo : OpReq::kWriteTo;
  const TensorView& src = t != nullptr ? *t : y;
  // Blocks of kEpilogueBlock elements are the "rows" (the last one may be short).
  const int64_t n = y.Size(), blocks = (n + kEpilogueBlock - 1) / kEpilogueBlock;
  ParallelFor(blocks, kEpilogueBlock * (ActCost(act) + 1), [&](int64_t lo, int64_t hi) {
    const size_t width = DTypeSize(y.dtype);
    TensorView vs{nullptr, y.dtype, Shape{0}}, vd{nullptr, y.dtype, Shape{0}};
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t off = r * kEpilogueBlock, m = std::min(kEpilogueBlock, n - off);
      vs.data = static_cast<char*>(src.data) + static_cast<size_t>(off) * width;
      vd.data = static_cast<char*>(y.data) + static_cast<size_t>(off) * width;
      vs.shape[0] = vd.shape[0] = m;
      nnx_cpu::ActivationForward(act, vs, mode, vd);  // float32 / float64 only; others throw
    }
  });
}

}  // namespace fused_cpu
}  // namespace weft
