// CPU kernels of the weight layers: FullyConnected, Convolution /
// Deconvolution, forward and backward. Each convolution entry point picks
// oneDNN when it is compiled in and enabled (UseDnnl(), common/nn_path.h) and
// supports the case, else the portable path (BLAS GEMM + im2col), which is
// always compiled. See Note [NN kernel paths] in core/op/common/nn_path.cc.
// Pooling's kernels, which take the same two paths: core/op/spatial/pooling_cpu.h.
//
// All views are contiguous row-major float32 or float64 (type inference
// rejects other dtypes); every output honours its OpReq, kAddTo included.
#pragma once
#include <cstdint>

#include "core/opdef/op_def.h"

namespace weft {
namespace nn_cpu {

// ---- convolution --------------------------------------------------------------------------------

// One convolution in forward terms: x (batch, in_c, in...) * w (out_c, in_c/groups,
// kernel...) -> y (batch, out_c, out...). Deconvolution is the same geometry
// with x and y swapped. Spatial arrays are right-aligned in three slots; the
// unused leading slots hold size 1, kernel 1, stride 1, dilate 1, pad 0, so
// 1-D and 2-D run as 3-D. `nd` is the op's own rank (1, 2 or 3).
struct ConvGeom {
  int nd = 2;
  int64_t batch = 0, in_c = 0, out_c = 0, groups = 1;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1}, stride[3] = {1, 1, 1}, dilate[3] = {1, 1, 1}, pad[3] = {0, 0, 0};

  int64_t InSize() const { return in[0] * in[1] * in[2]; }
  int64_t OutSize() const { return out[0] * out[1] * out[2]; }
  int64_t KernelSize() const { return kernel[0] * kernel[1] * kernel[2]; }
  // 1x1 kernel, stride 1, no padding: the unfolded input is the input itself.
  bool IsPointwise() const;
};

// y (req)= conv(x, w) + b; b == nullptr: no bias.
void ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y);
// dx (req)= gradient of conv(x, w) w.r.t. x, given dy.
void ConvBackwardData(const ConvGeom& g, const TensorView& dy, const TensorView& w, OpReq req, const TensorView& dx);
// dw (req)= gradient w.r.t. w given dy and x; db (req_db)= sum of dy over batch and space (db may be null).
void ConvBackwardWeight(const ConvGeom& g, const TensorView& dy, const TensorView& x, OpReq req,
                        const TensorView& dw, const TensorView* db, OpReq req_db);
// Both of the above in one pass (the portable path unfolds x once for both).
void ConvBackward(const ConvGeom& g, const TensorView& dy, const TensorView& x, const TensorView& w,
                  OpReq req_dx, const TensorView& dx, OpReq req_dw, const TensorView& dw, const TensorView* db,
                  OpReq req_db);

// y[n, c, s] += b[c] for y of shape (n, c, s...).
void AddBias(const TensorView& b, int64_t n, int64_t c, int64_t s, const TensorView& y);
// db[c] (req)= sum over n and s of dy[n, c, s].
void BiasGrad(const TensorView& dy, int64_t n, int64_t c, int64_t s, OpReq req, const TensorView& db);

// ---- fully connected ----------------------------------------------------------------------------

// x viewed as (rows, in_dim), w (hidden, in_dim), b (hidden,), y (rows, hidden).
struct FCGeom {
  int64_t rows = 0, in_dim = 0, hidden = 0;
};

void FCForward(const FCGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
               const TensorView& y);
void FCBackward(const FCGeom& g, const TensorView& dy, const TensorView& x, const TensorView& w, OpReq req_dx,
                const TensorView& dx, OpReq req_dw, const TensorView& dw, const TensorView* db, OpReq req_db);

// ---- the portable path, exposed for tests and benchmarks ----------------------------------------
namespace portable {
void ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y);
void ConvBackward(const ConvGeom& g, const TensorView& dy, const TensorView& x, const TensorView& w,
                  OpReq req_dx, const TensorView& dx, OpReq req_dw, const TensorView& dw, const TensorView* db,
                  OpReq req_db);
}  // namespace portable

}  // namespace nn_cpu
}  // namespace weft
