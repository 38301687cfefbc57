// SequenceReverse's index rule, shared by its CPU kernel
// (core/op/seq/sequence_reverse.cc) and its GPU kernel (sequence_reverse.cu).
#pragma once
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace nnm {

// data is (steps, batch, rest...) (axis 0, the only axis MXNet supports).
struct ReverseLayout {
  int64_t steps = 1, batch = 1, rest = 1;
};

// The length of sequence b: every step without lengths, else truncated
// toward zero and clipped to [0, steps].
WEFT_HD inline int64_t ReverseLength(const double* lengths, int64_t b, int64_t steps) {
  if (lengths == nullptr) return steps;
  const double v = lengths[b];
  if (!(v > 0)) return 0;
  return v >= static_cast<double>(steps) ? steps : static_cast<int64_t>(v);
}

// The flat index of data that output element e copies: step t < length[b]
// takes step length[b] - 1 - t; the steps past the length stay in place (MXNet).
// The map is its own inverse, so the gradient is the same reversal.
WEFT_HD inline int64_t ReverseSource(int64_t e, const ReverseLayout& l, const double* lengths) {
  const int64_t r = e % l.rest, q = e / l.rest;
  const int64_t b = q % l.batch, t = q / l.batch;
  const int64_t len = ReverseLength(lengths, b, l.steps);
  const int64_t src = t < len ? len - 1 - t : t;
  return (src * l.batch + b) * l.rest + r;
}

}  // namespace nnm
}  // namespace weft
