// CPU samplers of the random ops. Each draws from `gen` strictly in element
// order on one thread, so a seed fixes every value (the generator is an engine
// var written by these ops, see core/op/random_state.h).
#pragma once
#include <cstdint>
#include <random>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// Uniform in [low, high), with as many random mantissa bits as out's dtype has.
void UniformCPU(std::mt19937_64& gen, double low, double high, OpReq req, const TensorView& out);

// Normal(loc, scale) by the Box–Muller transform, two values per pair of draws.
void NormalCPU(std::mt19937_64& gen, double loc, double scale, OpReq req, const TensorView& out);

// Uniform integers in [low, high) (high > low), unbiased by rejection.
void RandIntCPU(std::mt19937_64& gen, int64_t low, int64_t high, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
