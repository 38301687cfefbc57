// GPU kernel of _npi_multinomial (np_multinomial.cc): one thread per
// experiment, its uniforms the words of Philox(seed, experiment, attempt)
// (Note [GPU random draws]) through np_multinomial_rules.h (Note [Multinomial
// by categorical draws]).
#include <vector>

#include "core/op/random/gpu_random.cuh"
#include "core/op/random/np_multinomial_gpu.h"
#include "core/op/random/np_multinomial_rules.h"

namespace weft {
namespace cuda {
namespace {

struct PhiloxWords {
  uint64_t seed, i, attempt;
  Random128 r;
  int left;
  WEFT_HD PhiloxWords(uint64_t s, uint64_t idx) : seed(s), i(idx), attempt(0), r{0, 0}, left(0) {}
  WEFT_HD double Next() {
    if (left == 0) {
      r = Philox(seed, i, attempt++);
      left = 2;
    }
    return UnitFromBits(left-- == 2 ? r.a : r.b, 53);
  }
};

void Multinomial(const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Shape shape;
  const sampler::MultinomialRule r = sampler::MultinomialRuleOf(p, &shape);
  const uint64_t seed = DrawSeed(ctx, "_npi_multinomial");
  if (req[0] == OpReq::kNull) return;
  const OpReq q = req[0];
  int64_t* o = out[0].ptr<int64_t>();
  Launch(ctx, out[0].Size() / r.k, [=] WEFT_HD(int64_t e) {
    PhiloxWords src(seed, static_cast<uint64_t>(e));
    sampler::MultinomialRow(r, e, src, q, o);
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpMultinomialGpu, Multinomial)  // _npi_multinomial

}  // namespace cuda
}  // namespace weft
