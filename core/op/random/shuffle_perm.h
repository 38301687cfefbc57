// The permutation of _shuffle (core/op/random/shuffle.cc), drawn on the host by
// both kernels: Fisher-Yates from the last position down with unbiased
// integers, from the CPU device's generator or, on the GPU, from a
// std::mt19937_64 seeded with the op's one draw (Note [GPU random draws]).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

namespace weft {
namespace random_perm {

inline std::vector<int64_t> Permutation(std::mt19937_64& gen, int64_t n) {
  std::vector<int64_t> perm(static_cast<size_t>(n > 0 ? n : 0));
  for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    const uint64_t range = static_cast<uint64_t>(i) + 1;
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % range + 1) % range;
    uint64_t r = gen();
    while (r > limit) r = gen();
    const int64_t j = static_cast<int64_t>(r % range);
    const int64_t t = perm[static_cast<size_t>(i)];
    perm[static_cast<size_t>(i)] = perm[static_cast<size_t>(j)];
    perm[static_cast<size_t>(j)] = t;
  }
  return perm;
}

}  // namespace random_perm
}  // namespace weft
