#include "core/op/random/random_cpu.h"

#include <cmath>
#include <vector>

#include "core/op/common/copy_cpu.h"

namespace weft {
namespace tensor_cpu {
namespace {

int MantissaBits(DType t) {
  switch (t) {
    case DType::kFloat64: return 53;
    case DType::kFloat16: return 11;
    case DType::kBFloat16: return 8;
    default: return 24;
  }
}

// A uniform double in [0, 1) with `bits` random bits, exact in the output dtype.
inline double Unit(std::mt19937_64& gen, int bits) {
  return static_cast<double>(gen() >> (64 - bits)) * std::ldexp(1.0, -bits);
}

}  // namespace

namespace {

// Draws into v, rejecting values that round up to `high` in T (a float32 or
// float16 result may round to the upper bound even when the double is below it).
template <typename T>
void UniformDraws(std::mt19937_64& gen, double low, double high, int bits, std::vector<double>* v) {
  for (double& x : *v) {
    double d = low + (high - low) * Unit(gen, bits);
    while (high > low && static_cast<double>(static_cast<float>(T(static_cast<float>(d)))) >= high)
      d = low + (high - low) * Unit(gen, bits);
    x = d;
  }
}

}  // namespace

void UniformCPU(std::mt19937_64& gen, double low, double high, OpReq req, const TensorView& out) {
  const int bits = MantissaBits(out.dtype);
  std::vector<double> v(static_cast<size_t>(out.Size()));
  switch (out.dtype) {
    case DType::kFloat16: UniformDraws<half_t>(gen, low, high, bits, &v); break;
    case DType::kBFloat16: UniformDraws<bf16_t>(gen, low, high, bits, &v); break;
    case DType::kFloat32: UniformDraws<float>(gen, low, high, bits, &v); break;
    default:
      for (double& x : v) x = low + (high - low) * Unit(gen, bits);
  }
  ConvertCopy(TensorView{v.data(), DType::kFloat64, out.shape}, req, out);
}

void NormalCPU(std::mt19937_64& gen, double loc, double scale, OpReq req, const TensorView& out) {
  const double two_pi = 6.283185307179586476925286766559;
  std::vector<double> v(static_cast<size_t>(out.Size()));
  for (size_t i = 0; i < v.size(); i += 2) {
    const double u1 = 1.0 - Unit(gen, 53);  // (0, 1]: log stays finite
    const double u2 = Unit(gen, 53);
    const double r = std::sqrt(-2.0 * std::log(u1));
    v[i] = loc + scale * r * std::cos(two_pi * u2);
    if (i + 1 < v.size()) v[i + 1] = loc + scale * r * std::sin(two_pi * u2);
  }
  ConvertCopy(TensorView{v.data(), DType::kFloat64, out.shape}, req, out);
}

void RandIntCPU(std::mt19937_64& gen, int64_t low, int64_t high, OpReq req, const TensorView& out) {
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  // Largest multiple of range that fits: draws at or above it are rejected.
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % range + 1) % range;
  std::vector<int64_t> v(static_cast<size_t>(out.Size()));
  for (int64_t& x : v) {
    uint64_t r = gen();
    while (r > limit) r = gen();
    x = static_cast<int64_t>(static_cast<uint64_t>(low) + r % range);
  }
  ConvertCopy(TensorView{v.data(), DType::kInt64, out.shape}, req, out);
}

}  // namespace tensor_cpu
}  // namespace weft
