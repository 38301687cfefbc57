// CPU kernels of Activation and LeakyReLU (forward and backward). Element-wise
// over flat arrays; the activation kind and write mode are runtime arguments.
#pragma once
#include <cstdint>
#include <random>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

enum class ActKind : int { kReLU, kSigmoid, kLogSigmoid, kMish, kTanh, kSoftReLU, kSoftSign };

// y = act(x).
void ActivationForward(ActKind kind, const TensorView& x, OpReq req, const TensorView& y);
// gx = gy * act'(x), from the output y (relu, sigmoid, tanh, softrelu,
// log_sigmoid) or from the input x (softsign, mish; x may be null otherwise).
void ActivationBackward(ActKind kind, const TensorView& gy, const TensorView& y, const TensorView* x, OpReq req,
                        const TensorView& gx);

enum class LeakyKind : int { kLeaky, kELU, kSELU, kGELU, kPReLU, kRReLU };

// Constants of selu (Klambauer et al., 2017) and gelu's normal density,
// shared by the CPU and GPU kernels and LeakyReLU's second-order rule.
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluLambda = 1.0507009873554804934193349852946;
constexpr double kInvSqrt2Pi = 0.3989422804014327;

// The kinds named by an op's act_type parameter (Activation, LeakyReLU and
// their backward ops; also their GPU kernels).
ActKind ActKindOf(const Params& p);
LeakyKind LeakyKindOf(const Params& p);

// prelu's broadcast of gamma over x: the index of gamma for element i of x.
// Decoded from the shapes once, before any kernel runs, by MakeGammaIndex
// (host code, core/op/act/activation_cpu.cc), shared with the GPU kernels
// (core/op/act/activation.cu) so both read gamma the same way; the index is
// constexpr so GPU kernels can call it (--expt-relaxed-constexpr).
struct GammaIndex {
  int64_t mode = 0;  // 0: scalar, 1: per channel (axis 1), 2: element-wise
  int64_t channels = 1, inner = 1;
  constexpr int64_t operator()(int64_t i) const { return mode == 0 ? 0 : mode == 2 ? i : (i / inner) % channels; }
};
// gamma has one element, x.shape[1] elements or x's shape.
GammaIndex MakeGammaIndex(const TensorView& x, const TensorView& gamma);

// LeakyReLU forward for every kind but rrelu. gamma (prelu only) has one
// element, x.shape[1] elements (per channel, axis 1) or x's shape.
void LeakyForward(LeakyKind kind, double slope, const TensorView& x, const TensorView* gamma, OpReq req,
                  const TensorView& y);
// rrelu: negative inputs are scaled by a slope drawn uniformly from
// [lower, upper) per element when gen is set (training), else by their mean;
// mask receives the slopes.
void RReLUForward(std::mt19937_64* gen, double lower, double upper, const TensorView& x, OpReq req,
                  const TensorView& y, OpReq req_mask, const TensorView& mask);
// gx = gy * d out / d x. prelu also gives ggamma (reduced to gamma's shape);
// rrelu reads the slopes from mask.
void LeakyBackward(LeakyKind kind, double slope, const TensorView& gy, const TensorView& x,
                   const TensorView* gamma, const TensorView* mask, OpReq req_x, const TensorView& gx,
                   OpReq req_gamma, const TensorView* ggamma);

}  // namespace nnx_cpu
}  // namespace weft
