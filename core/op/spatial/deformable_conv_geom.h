// The geometry of the deformable convolutions (deformable_conv.cc) from their
// parameters and input shapes, used by shape inference and by both kernels.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/params.h"
#include "core/op/spatial/deformable_conv_rules.h"

namespace weft {
namespace spatial {

// Input slots: data, offset, [mask], weight, [bias].
struct DeformSlots {
  int weight = 2, bias = 3, mask = -1;
};
inline DeformSlots DeformSlotsOf(bool modulated) {
  DeformSlots s;
  if (modulated) {
    s.mask = 2;
    s.weight = 3;
    s.bias = 4;
  }
  return s;
}

// Checks the parameters and data (N, C, H, W); throws naming op. The output
// size follows Convolution's rule.
DeformGeom DeformGeometry(const Params& p, const std::string& op, const Shape& data, bool modulated);

}  // namespace spatial
}  // namespace weft
