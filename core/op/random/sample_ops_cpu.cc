#include "core/op/random/sample_ops_cpu.h"

#include "core/op/common/copy_cpu.h"

namespace weft {
namespace tensor_cpu {
namespace {

// The CPU source of Note [One sampler rule]: 53-bit uniforms from the device generator.
struct MtSource {
  std::mt19937_64* gen;
  double Next() { return static_cast<double>((*gen)() >> 11) * (1.0 / 9007199254740992.0); }
};

}  // namespace

void SampleCPU(std::mt19937_64& gen, sampler::Dist d, const std::vector<double>& a, const std::vector<double>& b,
               int64_t per, OpReq req, const TensorView& out) {
  std::vector<double> v(static_cast<size_t>(out.Size()));
  MtSource src{&gen};
  const bool two = !b.empty();
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t j = per > 0 ? i / static_cast<size_t>(per) : 0;
    v[i] = sampler::Draw(d, a[j], two ? b[j] : 0.0, src);
  }
  if (req == OpReq::kNull) return;
  ConvertCopy(TensorView{v.data(), DType::kFloat64, out.shape}, req, out);
}

std::vector<double> ToDoubles(const TensorView& v) {
  std::vector<double> r(static_cast<size_t>(v.Size()));
  ConvertCopy(v, OpReq::kWriteTo, TensorView{r.data(), DType::kFloat64, v.shape});
  return r;
}

}  // namespace tensor_cpu
}  // namespace weft
