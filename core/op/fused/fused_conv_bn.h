// What the CPU and GPU kernels of _fused_convolution_bn share
// (core/op/fused/fused_conv_bn.cc, fused_conv_bn.cu): where each input sits
// for the op's parameters, and the parameters of the Convolution and the
// BatchNorm it stands for.
#pragma once
#include <string>
#include <vector>

#include "core/opdef/params.h"

namespace weft {
namespace fused_conv_bn {

// Input positions: data 0, weight 1, then bias (unless no_bias), gamma, beta,
// moving_mean, moving_var, and addend (with_sum); -1 when absent.
struct Slots {
  int bias = -1, gamma = -1, beta = -1, moving_mean = -1, moving_var = -1, addend = -1;
  int num_inputs = 0;
};
Slots SlotsOf(const Params& p);

// act_type's values: "none", then Activation's.
const std::vector<std::string>& ActTypes();
// The op's act_type ("none" when none: the default reads back empty).
std::string ActType(const Params& p);

// The Convolution's and the BatchNorm's own parameters, parsed for those ops.
Params ConvParams(const Params& p);
Params BatchNormParams(const Params& p);

}  // namespace fused_conv_bn
}  // namespace weft
