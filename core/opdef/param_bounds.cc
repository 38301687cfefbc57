#include "core/opdef/param_bounds.h"

#include <cstdint>
#include <cstring>
#include <limits>

#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/opdef/params.h"

namespace weft {
namespace {

// Note [Bounded attributes]
// An attribute that counts something (inputs, outputs, channels, layers,
// window sizes) drives allocations and loops long before a kernel runs: a
// split with num_outputs=4294967295 built four billion output names, a
// Concat's num_args looped as long. Such names mean the same in every op, so
// their range is set here, once, by name, and Params::Parse checks it for all
// ops (symbol JSON, Python, R, Go all parse through it). The bounds are what
// the name can sensibly mean -- MXNet's own integer types (int32 channel
// counts) and the 3 spatial axes of its window ops -- not each op's finer
// rules (num_group divides num_filter, kernel fits the input), which stay in
// the op's shape inference. A new count-like parameter gets a row here.
struct Bound {
  const char* name;
  int64_t lo, hi;
  size_t max_len;  // tuple parameters: the most entries; 0 for plain ints
};

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

const Bound kBounds[] = {
    {"num_args", 0, OpDef::kMaxVariadicInputs, 0},
    {"num_outputs", 1, OpDef::kMaxVariadicInputs, 0},
    {"num_filter", 0, kInt32Max, 0},  // UpSampling's default is 0
    {"num_hidden", 1, kInt32Max, 0},
    {"num_group", 1, kInt32Max, 0},
    {"num_deformable_group", 1, kInt32Max, 0},
    {"state_size", 1, kInt32Max, 0},
    {"projection_size", 1, kInt32Max, 0},
    {"num_layers", 1, 1024, 0},  // each layer is a loop over weights
    {"kernel", 0, kInt32Max, 3},
    {"stride", 1, kInt32Max, 3},
    {"dilate", 1, kInt32Max, 3},
    {"pad", 0, kInt32Max, 3},
    {"num_out_data", 0, OpDef::kMaxVariadicInputs, 0},  // the control-flow ops' step outputs
    {"max_iterations", 0, kInt32Max, 0},                // _while_loop's output rows
    {"sample_per_part", 1, 256, 0},  // sample_per_part^2 bilinear samples per bin, per roi and channel
};

const Bound* FindBound(const std::string& name) {
  for (const Bound& b : kBounds)
    if (name == b.name) return &b;
  return nullptr;
}

}  // namespace

void CheckParamBounds(const OpDef& op, const ParamSpec& spec, const ParamValue& v) {
  if (v.is_none) return;
  const Bound* b = FindBound(spec.name);
  if (b == nullptr) return;
  if (spec.type == ParamType::kInt) {
    WEFT_CHECK(v.i >= b->lo && v.i <= b->hi, kInvalidArgument)
        << op.name << ": parameter '" << spec.name << "' is " << v.i << "; it must be in [" << b->lo << ", "
        << b->hi << "]";
  } else if (spec.type == ParamType::kShape) {
    WEFT_CHECK(b->max_len == 0 || v.tuple.size() <= b->max_len, kInvalidArgument)
        << op.name << ": parameter '" << spec.name << "' has " << v.tuple.size() << " entries; it takes at most "
        << b->max_len << " (one per spatial axis)";
    for (int64_t d : v.tuple) {
      WEFT_CHECK(d == kNoneDim || (d >= b->lo && d <= b->hi), kInvalidArgument)
          << op.name << ": parameter '" << spec.name << "' has entry " << d << "; entries must be in [" << b->lo
          << ", " << b->hi << "]";
    }
  }
}

}  // namespace weft
