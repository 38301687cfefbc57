// The layer geometries of core/op/layer/layer_cpu.h (FullyConnected,
// Convolution, Deconvolution) decoded from an op's parameters and
// its data shape, validated with shape inference's messages. Each is defined
// once, next to its op's declaration, and shared by the op (shape inference,
// CPU compute) and its GPU kernels (core/op/layer/*.cu, core/op/fused/*.cu),
// which must size their work exactly as the CPU does. Host code: called before any kernel is launched.
#pragma once
#include "core/op/layer/layer_cpu.h"

namespace weft {
namespace nn {

// FullyConnected (fully_connected.cc). flatten=True: data (batch, ...) is
// (batch, prod(...)); flatten=False: the last axis is the input dimension and
// every other axis is kept. `out`, unless null, gets the output shape.
nn_cpu::FCGeom FCGeometry(const Params& p, const Shape& data, Shape* out = nullptr);

// Convolution (convolution.cc):
// out = (in + 2*pad - dilate*(kernel-1) - 1) / stride + 1.
nn_cpu::ConvGeom ConvGeometry(const Params& p, const Shape& data);

// Deconvolution (deconvolution.cc): g in convolution terms (x = this op's
// output, y = this op's data), and the op's output and weight shapes.
struct DeconvPlan {
  nn_cpu::ConvGeom g;
  Shape out, weight;
};
DeconvPlan DeconvGeometry(const Params& p, const Shape& data);

}  // namespace nn
}  // namespace weft
