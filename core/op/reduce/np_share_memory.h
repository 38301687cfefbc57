// Whether two arrays' buffers overlap, the rule of _npi_share_memory's CPU
// and GPU kernels (np_share_memory.cc, np_share_memory.cu).
#pragma once
#include <cstdint>

#include "core/opdef/tensor_view.h"

namespace weft {
namespace reduce_np {

// Note [Shared memory as overlapping byte ranges]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet 1.9.1's _npi_share_memory (np.shares_memory / np.may_share_memory)
// compares the byte ranges [data, data + size * itemsize) of its two inputs:
// true when they overlap, false when either is empty. Only the addresses are
// read, never the elements, so the GPU kernel decides on the host too and
// writes the one bool. In a graph, two inputs fed by one array (or by views of
// one buffer) overlap; separate arrays never do.
inline bool BuffersOverlap(const TensorView& a, const TensorView& b) {
  if (a.Size() == 0 || b.Size() == 0 || a.data == nullptr || b.data == nullptr) return false;
  const uintptr_t a0 = reinterpret_cast<uintptr_t>(a.data), b0 = reinterpret_cast<uintptr_t>(b.data);
  const uintptr_t a1 = a0 + static_cast<uintptr_t>(a.Size()) * DTypeSize(a.dtype);
  const uintptr_t b1 = b0 + static_cast<uintptr_t>(b.Size()) * DTypeSize(b.dtype);
  return a0 < b1 && b0 < a1;
}

}  // namespace reduce_np
}  // namespace weft
