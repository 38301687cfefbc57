// CPU kernels of LRN (local response normalisation across channels, MXNet
// 1.x). Data is seen as (batch, C, inner) with inner = prod(spatial dims);
// the window of channel c is [c - nsize/2, c + nsize/2] clipped to [0, C).
#pragma once
#include <cstdint>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

struct LRNArgs {
  int64_t batch = 1, channels = 1, inner = 1;
  double alpha = 1e-4, beta = 0.75, knorm = 2;
  int64_t nsize = 1;  // odd, >= 1
};

// The op's parameters checked against data (at least 3-D; `what` names it in
// messages), data seen as (batch, C, inner). Shared by the op's declaration
// (core/op/spatial/lrn.cc) and its GPU kernels (core/op/spatial/pooling_lrn.cu).
LRNArgs LRNArgsOf(const Params& p, const Shape& data, const char* what);

// norm (req_norm)= knorm + alpha / nsize * window sum of x^2;
// y (req_y)= x * norm^-beta. float32 and float64 (others throw kDType).
// y and norm must not share memory with x.
void LRNForward(const LRNArgs& a, const TensorView& x, OpReq req_y, const TensorView& y, OpReq req_norm,
                const TensorView& norm);
// gx (req)= gy * norm^-beta - 2 alpha beta / nsize * x * window sum of
// gy * x * norm^(-beta-1), with norm the forward's second output. gx may
// share memory with gy (not with x or norm).
void LRNBackward(const LRNArgs& a, const TensorView& gy, const TensorView& x, const TensorView& norm, OpReq req,
                 const TensorView& gx);

}  // namespace nnx_cpu
}  // namespace weft
