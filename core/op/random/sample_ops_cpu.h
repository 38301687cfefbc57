// CPU kernel of the samplers (core/op/random/sample_ops.cc): one loop over the
// output in element order reading the device generator (Note [One sampler
// rule] in sampler_rules.h).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/op/random/sampler_rules.h"

namespace weft {
namespace tensor_cpu {

// Draws out (req) from `d`: element i takes its parameters from a[i / per] and
// b[i / per] (b is ignored by one-parameter distributions).
void SampleCPU(std::mt19937_64& gen, sampler::Dist d, const std::vector<double>& a, const std::vector<double>& b,
               int64_t per, OpReq req, const TensorView& out);

// The values of v as doubles (any dtype).
std::vector<double> ToDoubles(const TensorView& v);

}  // namespace tensor_cpu
}  // namespace weft
