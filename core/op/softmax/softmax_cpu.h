// CPU kernels of the softmax family: softmax / log_softmax along one axis
// (also used by SoftmaxActivation and SoftmaxOutput), softmax_cross_entropy,
// and SoftmaxOutput's gradient. An array is seen as (outer, n, inner) around
// the softmax axis; rows of n elements are split across threads.
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

// y (req)= softmax(x / temperature) along the middle axis of (outer, n, inner),
// or its logarithm when `log`. x and y may have different floating dtypes. y
// may share memory with x. lens (use_length, Note [Softmax with length]): the
// valid count of each of the outer * inner rows, in [0, n]; nullptr: n.
void SoftmaxForward(const TensorView& x, int64_t outer, int64_t n, int64_t inner, double temperature, bool log,
                    OpReq req, const TensorView& y, const int64_t* lens = nullptr);
// gx (req)= gradient of the above from the output y and its gradient gy (one dtype).
void SoftmaxBackward(const TensorView& gy, const TensorView& y, int64_t outer, int64_t n, int64_t inner,
                     double temperature, bool log, OpReq req, const TensorView& gx, const int64_t* lens = nullptr);
// The length input of use_length as one valid count per row, each clamped to
// [0, n] (a negative or NaN length is 0, as MXNet's integer lengths are read).
std::vector<int64_t> SoftmaxRowLengths(const TensorView& length, int64_t n);

// out[0] = sum_i -log softmax(x[i, :])[label[i]] for x of shape (N, K); labels
// are clipped to [0, K).
void SoftmaxCrossEntropyForward(const TensorView& x, const TensorView& label, OpReq req, const TensorView& out);
// gx = (softmax(x) - onehot(label)) * gout[0]; glabel = 0.
void SoftmaxCrossEntropyBackward(const TensorView& gout, const TensorView& x, const TensorView& label, OpReq req_x,
                                 const TensorView& gx, OpReq req_label, const TensorView& glabel);

struct SoftmaxOutputGradParams {
  double grad_scale = 1, ignore_label = -1, smooth_alpha = 0;
  bool use_ignore = false, multi_output = false, preserve_shape = false;
  int normalization = 0;  // 0 null, 1 batch, 2 valid
};
// SoftmaxOutput's parameters, and its output seen as (rows, k, s) by the
// gradient: one label per (row, s) position, k classes. Shared by the op
// (core/op/softmax/softmax_output.cc) and the CPU and GPU kernels.
SoftmaxOutputGradParams SoftmaxOutputGradParamsOf(const Params& p);
struct SoftmaxOutputGradView {
  int64_t rows = 0, k = 0, s = 1;
};
SoftmaxOutputGradView SoftmaxOutputGradViewOf(const SoftmaxOutputGradParams& p, const Shape& out);
// SoftmaxOutput's gradient (MXNet 1.x rules) from its output and label.
void SoftmaxOutputBackward(const SoftmaxOutputGradParams& p, const TensorView& out, const TensorView& label,
                           OpReq req, const TensorView& gx);

}  // namespace nnx_cpu
}  // namespace weft
