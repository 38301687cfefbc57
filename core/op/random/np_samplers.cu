// GPU kernel of _npi_gumbel, _npi_logistic, _npi_rayleigh, _npi_weibull,
// _npi_pareto, _npi_powerd and _npi_bernoulli (np_samplers.cc): element i
// draws from Philox(seed, i, 0) (Note [GPU random draws]) through
// np_samplers_rules.h (Note [Inverse-CDF samplers]), with its parameters at
// i's position in the array parameters (Note [Sampler parameters from arrays]).
#include <vector>

#include "core/op/common/host_run_gpu.h"
#include "core/op/random/gpu_random.cuh"
#include "core/op/random/np_samplers_gpu.h"
#include "core/op/random/np_samplers_rules.h"

namespace weft {
namespace cuda {
namespace {

// Up to two uniforms per element (normal takes two): the words of Philox(seed, i, 0).
struct OnePhilox {
  uint64_t seed, i;
  int used = 0;
  Random128 r{0, 0};
  WEFT_HD double Next() {
    if (used == 0) r = Philox(seed, i, 0);
    return UnitFromBits(used++ == 0 ? r.a : r.b, 53);
  }
};

// Note [Sampler parameters from arrays]: their values are checked on host copies first.
void CheckArraysOnHost(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in) {
  if (in.empty()) return;
  gpu::StreamSync(static_cast<gpu::Stream>(ctx.stream));
  std::vector<HostBuf> bufs(in.size());
  std::vector<TensorView> host;
  for (size_t k = 0; k < in.size(); ++k) host.push_back(ToHost(in[k], &bufs[k]));
  sampler::CheckNpArrayParams(p, host);
}

void NpSample(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  const sampler::NpDistParams d = sampler::NpDistOf(p);
  CheckArraysOnHost(ctx, p, in);
  const sampler::NpParamArrays arr = sampler::NpArraysOf(p, in, out[0].shape);
  const uint64_t seed = DrawSeed(ctx, p.op()->name.c_str());
  if (req[0] == OpReq::kNull) return;
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(out[0].dtype, p.op()->name.c_str(), T, {
    T* o = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      OnePhilox src{seed, static_cast<uint64_t>(i), 0, Random128{0, 0}};
      Assign(o, i, r, static_cast<T>(sampler::NpDraw(arr.n ? sampler::NpParamsAt(d, arr, i) : d, src)));
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpSampleGpu, NpSample)  // _npi_gumbel ... _npi_pareto, _npi_powerd

}  // namespace cuda
}  // namespace weft
