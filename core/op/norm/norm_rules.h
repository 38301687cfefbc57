// How the normalisation ops see their data: the kernel arguments of
// core/op/norm/norm_cpu.h (the (outer, channels|n, inner) view and the settings)
// decoded from an op's parameters and its data shape. Defined next to the
// ops' declarations (batch_norm.cc, layer_norm.cc) and shared with their GPU
// kernels (core/op/norm/norm.cu), which must split the data exactly as the CPU
// does. Host code: called before any kernel is launched.
#pragma once
#include "core/base/shape.h"
#include "core/op/norm/norm_cpu.h"

namespace weft {
namespace nnx {

// BatchNorm, _backward_BatchNorm: data around the axis parameter (checked
// against its rank); the batch's statistics are used (and folded into the
// moving ones) when is_train and not use_global_stats.
nnx_cpu::BatchNormArgs BatchNormArgsOf(const Params& p, const Shape& data, bool is_train);
// LayerNorm, _backward_LayerNorm: rows along the axis parameter.
nnx_cpu::RowNormArgs LayerNormArgsOf(const Params& p, const Shape& data);
// InstanceNorm, _backward_InstanceNorm: one row per (sample, channel) over
// the spatial dims; data must have at least 3 dims (shape inference's check).
nnx_cpu::RowNormArgs InstanceNormArgsOf(const Params& p, const Shape& data);

}  // namespace nnx
}  // namespace weft
