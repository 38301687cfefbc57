// Counter-based random numbers for GPU kernels (the random ops, Dropout,
// rrelu).
//
// Note [GPU random draws]
// A CPU kernel draws from the device's std::mt19937_64 one element after
// another; a GPU kernel cannot (its indices run in any order, at once). So the
// op draws ONE 64-bit seed from OpContext::rng->engine() on the host -- the
// engine worker holds the write of the generator var, so seeds follow push
// order and weft.random.seed(n) reproduces them -- and element i's value is a
// pure function of (seed, i, attempt): Philox-4x32-10 (Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3", SC'11) with the seed as key and
// (i, attempt) as counter. The GPU draws therefore differ from the CPU's but
// have the same distributions, and one seed gives the same values in both the
// CUDA and the emulated build.
#pragma once
#include <cstdint>

#include "core/base/error.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/random_state.h"

namespace weft {
namespace cuda {

// The op's seed (see Note [GPU random draws]). Host side, once per op call.
inline uint64_t DrawSeed(const OpContext& ctx, const char* op) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << op << ": called without a random generator";
  return ctx.rng->engine()();
}

// Two independent 64-bit words for counter (i, attempt) under key seed.
struct Random128 {
  uint64_t a, b;
};

WEFT_HD inline void PhiloxMulHiLo(uint32_t a, uint32_t b, uint32_t* hi, uint32_t* lo) {
  const uint64_t p = static_cast<uint64_t>(a) * static_cast<uint64_t>(b);
  *hi = static_cast<uint32_t>(p >> 32);
  *lo = static_cast<uint32_t>(p);
}

WEFT_HD inline Random128 Philox(uint64_t seed, uint64_t i, uint64_t attempt) {
  uint32_t c0 = static_cast<uint32_t>(i), c1 = static_cast<uint32_t>(i >> 32);
  uint32_t c2 = static_cast<uint32_t>(attempt), c3 = static_cast<uint32_t>(attempt >> 32);
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    uint32_t hi0, lo0, hi1, lo1;
    PhiloxMulHiLo(0xD2511F53u, c0, &hi0, &lo0);
    PhiloxMulHiLo(0xCD9E8D57u, c2, &hi1, &lo1);
    const uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  Random128 r;
  r.a = (static_cast<uint64_t>(c0) << 32) | c1;
  r.b = (static_cast<uint64_t>(c2) << 32) | c3;
  return r;
}

// A uniform double in [0, 1) with `bits` (1..53) random bits, exact in any
// dtype with that many mantissa bits (like the CPU's Unit in core/op/random/random_cpu.cc).
WEFT_HD inline double UnitFromBits(uint64_t r, int bits) {
  return static_cast<double>(r >> (64 - bits)) * (1.0 / static_cast<double>(uint64_t(1) << bits));
}

// A 53-bit uniform double in [0, 1) for element i.
WEFT_HD inline double Uniform53(uint64_t seed, uint64_t i) { return UnitFromBits(Philox(seed, i, 0).a, 53); }

}  // namespace cuda
}  // namespace weft
