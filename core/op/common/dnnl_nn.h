// The oneDNN path of the neural-network kernels (compiled only with
// WEFT_USE_DNNL). Each function returns false, having written nothing, when
// oneDNN does not cover the case (float64, an unsupported pooling variant);
// the caller then runs the portable path. Signatures as in core/op/layer/layer_cpu.h and
// core/op/spatial/pooling_cpu.h.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/op/common/weight_cache.h"
#include "core/op/layer/layer_cpu.h"
#include "core/op/spatial/pooling_cpu.h"
#include "core/op/norm/norm_cpu.h"

namespace weft {
namespace dnnl_cpu {

using nn_cpu::ConvGeom;
using nn_cpu::PoolGeom;

bool ConvForward(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b, OpReq req,
                 const TensorView& y);
// Post-operations the forward primitive applies while it writes y (Note
// [Inference folding] in core/op/fused/fused_conv_bn.cc):
//   y = relu?(conv(x, w) + b + addend)
// addend (y's shape, may be y itself) is oneDNN's sum post-op. Write mode kWriteTo only.
struct ConvPostOps {
  const TensorView* addend = nullptr;
  bool relu = false;
};
bool ConvForwardPost(const ConvGeom& g, const TensorView& x, const TensorView& w, const TensorView* b,
                     const ConvPostOps& post, const TensorView& y);
// ConvForwardPost's weights (and bias) in its primitive's own layout, made
// once and kept by the caller (Note [Weight layout cache] in
// core/op/common/weight_cache.h); null when oneDNN does not take the case.
// Only whether post has an addend and post.relu matter here. `winograd`: for
// a Winograd primitive where oneDNN has one (Note [Winograd convolutions] in
// convolution_dnnl.cc), else the direct one.
struct PreparedConvWeights;
std::shared_ptr<const PreparedConvWeights> PrepareConvWeights(const ConvGeom& g, const TensorView& w,
                                                              const TensorView* b, const ConvPostOps& post,
                                                              bool winograd);
// ConvForwardPost with the weights kept in the primitive's layout between calls
// while `weight_stamp` (the weight's write stamp, Note [Write stamps]) and the
// bias values stay the same; 0 (unknown, or training): nothing is kept.
bool ConvForwardKept(uint64_t weight_stamp, const ConvGeom& g, const TensorView& x, const TensorView& w,
                     const TensorView* b, const ConvPostOps& post, const TensorView& y);
// What prepared weights depend on besides the weights: the geometry and post-ops
// (a cache key; the weights' layout is the primitive's for exactly these).
std::string PreparedConvKey(const ConvGeom& g, bool bias, const ConvPostOps& post);
// The prepared weights of w kept in the weight cache under `kind` and `src`,
// made by make(winograd) when missing: direct first, Winograd from the third
// use when g suits it (Note [Winograd from the third use] in convolution_dnnl.cc).
std::shared_ptr<const PreparedConvWeights> KeptConvWeights(
    const std::string& kind, const weight_cache::Source& src, const ConvGeom& g, const TensorView& w, bool bias,
    const ConvPostOps& post, const std::function<std::shared_ptr<const PreparedConvWeights>(bool)>& make);
// ConvForwardPost with weights from PrepareConvWeights for the same g and post.
bool ConvForwardPrepared(const ConvGeom& g, const TensorView& x, const PreparedConvWeights& pw,
                         const ConvPostOps& post, const TensorView& y);
bool ConvBackwardData(const ConvGeom& g, const TensorView& dy, const TensorView& w, OpReq req, const TensorView& dx);
bool ConvBackwardWeight(const ConvGeom& g, const TensorView& dy, const TensorView& x, OpReq req, const TensorView& dw,
                        const TensorView* db, OpReq req_db);

bool PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y);
bool PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx);

// dnnl_norm.cc; signatures as in norm.h. LayerNorm forward only.
bool BatchNormForward(const nnx_cpu::BatchNormArgs& a, const TensorView& x, const TensorView& gamma,
                      const TensorView& beta, const TensorView& moving_mean, const TensorView& moving_var,
                      const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean_out,
                      const TensorView& invstd_out);
bool BatchNormBackward(const nnx_cpu::BatchNormArgs& a, const TensorView& gy, const TensorView& mean,
                       const TensorView& invstd, const TensorView& x, const TensorView& gamma,
                       const TensorView& moving_mean, const TensorView& moving_var, const std::vector<OpReq>& req,
                       const TensorView& gx, const TensorView& ggamma, const TensorView& gbeta);
bool LayerNormForward(const nnx_cpu::RowNormArgs& a, const TensorView& x, const TensorView& gamma,
                      const TensorView& beta, const std::vector<OpReq>& req, const TensorView& y,
                      const TensorView& mean, const TensorView& stat);

}  // namespace dnnl_cpu
}  // namespace weft
