// GPU kernels of FullyConnected and _backward_FullyConnected
// (core/op/layer/fully_connected.cc): the products go to DenseGemm (nn_gpu.cuh,
// defined in core/op/dense/dot.cu), the bias and its gradient are loops here.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/layer/layer_rules.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void FCForwardT(const OpContext& ctx, const nn_cpu::FCGeom& g, const T* x, const T* w, const T* b, OpReq req, T* y) {
  DenseGemm(ctx, false, true, g.rows, g.hidden, g.in_dim, x, g.in_dim, w, g.in_dim, req == OpReq::kAddTo ? T(1) : T(0),
            y, g.hidden);
  if (b == nullptr) return;
  const int64_t hidden = g.hidden;
  Launch(ctx, g.rows * hidden, [=] WEFT_HD(int64_t i) { y[i] += b[i % hidden]; });
}

// db[j] (req)= sum over rows of dy[r, j], summed in AccT<T> in row order like the CPU.
template <typename T>
void ColumnSum(const OpContext& ctx, const T* dy, int64_t rows, int64_t cols, OpReq req, T* db) {
  Launch(ctx, cols, [=] WEFT_HD(int64_t j) {
    AccT<T> acc = AccT<T>(0);
    for (int64_t r = 0; r < rows; ++r) acc += static_cast<AccT<T>>(dy[r * cols + j]);
    Assign(db, j, req, static_cast<T>(acc));
  });
}

template <typename T>
void FCBackwardT(const OpContext& ctx, const nn_cpu::FCGeom& g, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const T* dy = in[0].ptr<T>();
  const T* x = in[1].ptr<T>();
  const T* w = in[2].ptr<T>();
  if (req[0] != OpReq::kNull)
    DenseGemm(ctx, false, false, g.rows, g.in_dim, g.hidden, dy, g.hidden, w, g.in_dim,
              req[0] == OpReq::kAddTo ? T(1) : T(0), out[0].ptr<T>(), g.in_dim);
  if (req[1] != OpReq::kNull)  // rows == 0: an empty product, zeros (or unchanged for kAddTo)
    DenseGemm(ctx, true, false, g.hidden, g.in_dim, g.rows, dy, g.hidden, x, g.in_dim,
              req[1] == OpReq::kAddTo ? T(1) : T(0), out[1].ptr<T>(), g.in_dim);
  if (out.size() > 2 && req[2] != OpReq::kNull) ColumnSum(ctx, dy, g.rows, g.hidden, req[2], out[2].ptr<T>());
}

void FullyConnected(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const nn_cpu::FCGeom g = nn::FCGeometry(p, in[0].shape);
  const bool bias = !p.GetBool("no_bias");
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "FullyConnected", T, {
    FCForwardT<T>(ctx, g, in[0].ptr<T>(), in[1].ptr<T>(), bias ? in[2].ptr<T>() : nullptr, req[0], out[0].ptr<T>());
  });
}

void FullyConnectedBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nn_cpu::FCGeom g = nn::FCGeometry(p, in[1].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_FullyConnected", T, { FCBackwardT<T>(ctx, g, in, req, out); });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(FullyConnectedGpu, FullyConnected)  // FullyConnected
WEFT_GPU_KERNEL_EXPORT(BackwardFullyConnectedGpu, FullyConnectedBackward)  // _backward_FullyConnected

}  // namespace cuda
}  // namespace weft
