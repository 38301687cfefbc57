// GPU kernels of the samplers (_random_<d>, _random_<d>_like, _sample_<d>;
// core/op/random/sample_ops.cc). One seed per op from the device generator,
// then element i's draws from Philox with counter (i, attempt) (Note [GPU
// random draws] in gpu_random.cuh); the distributions are the CPU's
// (Note [One sampler rule] in sampler_rules.h). Array parameters are checked
// on the CPU only: reading them here would stall the stream.
#include <cstdint>

#include "core/op/common/gpu_kernel.h"
#include "core/op/random/gpu_random.cuh"
#include "core/op/random/sample_ops_rules.h"
#include "core/op/random/sample_ops_gpu.h"
#include "core/op/random/sampler_rules.h"

namespace weft {
namespace cuda {
namespace {

// The parameter dtypes of _sample_<d> on GPU: the floating ones and the usual
// integers (MXNet takes any; the CPU kernel does).
#define WEFT_SAMPLE_PARAM_SWITCH(dt, op, T, ...)                           \
  switch (dt) {                                                            \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }   \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }  \
    case ::weft::DType::kFloat16: { using T = ::weft::gpu_half; __VA_ARGS__ break; } \
    case ::weft::DType::kBFloat16: { using T = ::weft::gpu_bf16; __VA_ARGS__ break; } \
    case ::weft::DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }   \
    case ::weft::DType::kInt64: { using T = int64_t; __VA_ARGS__ break; }   \
    default: ::weft::cuda::UnsupportedDType(op, dt);                       \
  }

// The GPU source of Note [One sampler rule]: the uniforms of element i are
// the words of Philox(seed, i, 0), Philox(seed, i, 1), ...
struct PhiloxSource {
  uint64_t seed, i, attempt;
  Random128 r;
  int left;
  WEFT_HD PhiloxSource(uint64_t s, uint64_t idx) : seed(s), i(idx), attempt(0), r{0, 0}, left(0) {}
  WEFT_HD double Next() {
    if (left == 0) {
      r = Philox(seed, i, attempt++);
      left = 2;
    }
    return UnitFromBits(left-- == 2 ? r.a : r.b, 53);
  }
};

// out[i] (req)= a draw with parameters pa[i / per], pb[i / per], or (a, b)
// when pa is null.
template <typename TI, typename TO>
void SampleT(const OpContext& ctx, uint64_t seed, sampler::Dist d, const TI* pa, const TI* pb, double a, double b,
             int64_t per, OpReq req, const TensorView& out) {
  TO* op = out.ptr<TO>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    double x = a, y = b;
    if (pa != nullptr) {
      const int64_t j = i / per;
      x = static_cast<double>(pa[j]);
      y = pb != nullptr ? static_cast<double>(pb[j]) : 0.0;
    }
    PhiloxSource src(seed, static_cast<uint64_t>(i));
    Assign(op, i, req, static_cast<TO>(sampler::Draw(d, x, y, src)));
  });
}

void Sample(sampler::Dist d, sampler::Form form, const OpContext& ctx, const Params& p,
            const std::vector<TensorView>& in, const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const char* op = p.op()->name.c_str();
  const uint64_t seed = DrawSeed(ctx, op);
  if (req[0] == OpReq::kNull) return;
  if (form != sampler::Form::kArray) {
    double a, b;
    sampler::AttrParams(p, d, &a, &b);
    WEFT_GPU_REAL_SWITCH(out[0].dtype, op, TO, {
      SampleT<TO, TO>(ctx, seed, d, nullptr, nullptr, a, b, 1, req[0], out[0]);
    })
    return;
  }
  const bool two = sampler::Info(d).nparams > 1;
  const int64_t per = sampler::SamplesPerParam(p);
  WEFT_SAMPLE_PARAM_SWITCH(in[0].dtype, op, TI, {
    const TI* pa = in[0].ptr<TI>();
    const TI* pb = two ? in[1].ptr<TI>() : nullptr;
    WEFT_GPU_REAL_SWITCH(out[0].dtype, op, TO, {
      SampleT<TI, TO>(ctx, seed, d, pa, pb, 0.0, 0.0, per, req[0], out[0]);
    })
  })
}

}  // namespace

FCompute SampleGpu(sampler::Dist d, sampler::Form form) {
  return [d, form](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    Sample(d, form, ctx, p, in, req, out);
  };
}

}  // namespace cuda
}  // namespace weft
