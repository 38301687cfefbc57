// Data a kernel derives from a weight array and keeps between calls while the
// weight is unchanged: oneDNN's blocked copy of a convolution's weights, with
// a BatchNorm folded in (core/op/fused/fused_conv_bn.cc).
//
// Note [Weight layout cache]
// At inference the weights are the same from one call to the next, yet a
// oneDNN convolution wants them in its own blocked layout, and the folded
// BatchNorm wants them scaled per filter: recomputing both at every call cost
// ResNet-18 at batch 1 about a tenth of its time (3.5 ms of reorders and a
// folding pass per forward of 48 ms, all of it over the 44 MB of weights).
// MXNet keeps the reordered weights inside the NDArray; here a kernel keeps
// them in this process-wide cache instead, so that no array layout leaks out
// of the kernel.
// An entry is found by (kind, weight pointer) and is valid while
//  * the weight array's write stamp is the one it was made from (Note [Write
//    stamps] in core/engine/engine.h: every completed write renews it, and a
//    stamp is never reused, so memory freed and reallocated at the same
//    address never matches), and
//  * the small per-channel inputs it was made from (bias, BatchNorm's gamma,
//    beta and moving statistics) hold the same values — compared, not
//    stamped, because the fused op is declared to write the moving statistics
//    at every call, and comparing a few thousand floats costs nothing.
// A stamp of 0 (memory shared outside the engine, through DLPack) is never
// cached. A mismatch rebuilds the entry in place, so one weight holds one
// entry per kind. Kernels use the cache only when not training (the weights
// then change at every step). The entries are bounded by
// WEFT_WEIGHT_CACHE_MB (default 1024 MiB, 0 turns the cache off); the least
// recently used ones go first. Entries of freed weights stay until evicted.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace weft {
namespace weight_cache {

// What an entry was made from.
struct Source {
  const void* weight = nullptr;  // the weight array's data
  uint64_t stamp = 0;            // its write stamp; 0: do not cache
  const float* small = nullptr;  // per-channel inputs, concatenated, compared by value
  size_t small_count = 0;
};

// The cached value of (kind, src.weight) if it was made from `src`; else
// make() — whose result takes `bytes` of the budget — stored and returned.
// make() runs without the cache's lock; it may return null (not stored).
std::shared_ptr<const void> FindOrMake(const std::string& kind, const Source& src, size_t bytes,
                                       const std::function<std::shared_ptr<const void>()>& make);

template <typename T>
std::shared_ptr<const T> FindOrMakeAs(const std::string& kind, const Source& src, size_t bytes,
                                      const std::function<std::shared_ptr<const T>()>& make) {
  return std::static_pointer_cast<const T>(
      FindOrMake(kind, src, bytes, [&]() { return std::static_pointer_cast<const void>(make()); }));
}

// Removes the entry of (kind, weight), if any; holders of its value keep it alive.
void Drop(const std::string& kind, const void* weight);

// True when the cache may hold anything (WEFT_WEIGHT_CACHE_MB > 0).
bool Enabled();
// Entries and bytes held; for tests.
size_t NumEntries();
size_t BytesHeld();
// Lookups answered from the cache since the process started.
uint64_t Hits();
// Drops every entry; for tests.
void Clear();

}  // namespace weight_cache
}  // namespace weft
