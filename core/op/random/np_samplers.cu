// GPU kernel of _npi_gumbel, _npi_logistic, _npi_rayleigh, _npi_weibull,
// _npi_pareto, _npi_powerd and _npi_bernoulli (np_samplers.cc): element i draws from Philox(seed, i, 0) (Note
// [GPU random draws]) through np_samplers_rules.h (Note [Inverse-CDF samplers]).
#include <vector>

#include "core/op/random/gpu_random.cuh"
#include "core/op/random/np_samplers_gpu.h"
#include "core/op/random/np_samplers_rules.h"

namespace weft {
namespace cuda {
namespace {

// One uniform per element: the first word of Philox(seed, i, 0).
struct OnePhilox {
  uint64_t seed, i;
  WEFT_HD double Next() { return UnitFromBits(Philox(seed, i, 0).a, 53); }
};

void NpSample(const OpContext& ctx, const Params& p, const std::vector<TensorView>&, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  const sampler::NpDistParams d = sampler::NpDistOf(p);
  const uint64_t seed = DrawSeed(ctx, p.op()->name.c_str());
  if (req[0] == OpReq::kNull) return;
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, {
    T* o = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      OnePhilox src{seed, static_cast<uint64_t>(i)};
      Assign(o, i, r, static_cast<T>(sampler::NpDraw(d, src)));
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpSampleGpu, NpSample)  // _npi_gumbel ... _npi_pareto, _npi_powerd

}  // namespace cuda
}  // namespace weft
