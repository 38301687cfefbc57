// The random numbers of one image sample's augmentation (and of an epoch's
// shuffle). Seeded from (seed, epoch, position) so a sample's crop and flip do
// not depend on which pool thread decodes it (Note [ImageRecordIter engine
// pipeline] in image_record_iter.h). splitmix64: small, fast, and the same
// stream on every platform (std::uniform_*_distribution is not).
#pragma once
#include <cmath>
#include <cstdint>

namespace weft {
namespace io {

class SampleRng {
 public:
  SampleRng(uint64_t a, uint64_t b, uint64_t c) : state_(Mix(Mix(Mix(a) ^ b) ^ c)) {}
  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return Mix(state_);
  }
  // In [0, 1), 53 random bits.
  double Unit() { return static_cast<double>(Next() >> 11) * (1.0 / 9007199254740992.0); }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Unit(); }
  // In [lo, hi] (inclusive); hi >= lo.
  int64_t RandInt(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  double Normal(double mean, double sd) {
    const double u1 = 1.0 - Unit(), u2 = Unit();  // u1 in (0, 1]: log is finite
    return mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

}  // namespace io
}  // namespace weft
