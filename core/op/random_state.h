// Random-number state per device. The generator is an engine var: random ops
// write it, so draws happen in push order and `seed(n)` makes runs reproducible
// regardless of thread scheduling (docs/DESIGN.md: RNG state is a var).
#pragma once
#include <cstdint>
#include <random>

#include "core/base/context.h"
#include "core/engine/engine.h"

namespace weft {

class RandomState {
 public:
  // The state of one device, created on first use (seeded with 0 mixed with the device).
  static RandomState* Get(Context ctx);
  // Pushes a write op on every existing device state (and future ones use this seed).
  static void SeedAll(uint64_t seed);

  VarHandle var() const { return var_; }
  // Only inside an op that writes var().
  std::mt19937_64& engine() { return gen_; }
  void Seed(uint64_t seed) { gen_.seed(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(ctx_.dev_id) + 1); }

 private:
  explicit RandomState(Context ctx);
  Context ctx_;
  VarHandle var_;
  std::mt19937_64 gen_;
};

}  // namespace weft
