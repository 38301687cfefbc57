// Pooling's geometry decoded from its parameters and data shape, validated
// with shape inference's messages: defined in pooling.cc, shared by the op
// (shape inference, CPU compute) and its GPU kernels (pooling_lrn.cu), which
// must size their work exactly as the CPU does. Host code.
#pragma once
#include "core/op/spatial/pooling_cpu.h"

namespace weft {
namespace nn {

// With MXNet's output-size rule of each pooling_convention.
nn_cpu::PoolGeom PoolGeometry(const Params& p, const Shape& data);

}  // namespace nn
}  // namespace weft
