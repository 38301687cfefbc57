// GPU kernels of _sample_multinomial, _backward_sample_multinomial
// (core/op/random/multinomial.cc) and _shuffle (shuffle.cc). Draws follow
// Note [GPU random draws] in gpu_random.cuh: one seed per op from the device
// generator; draw i of the multinomial is Philox(seed, i), the shuffle's
// permutation is drawn on the host from a generator seeded with it
// (shuffle_perm.h) and applied by a gather.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/random/gpu_random.cuh"
#include "core/op/random/multinomial_shuffle_gpu.h"
#include "core/op/random/sampler_rules.h"
#include "core/op/random/shuffle_perm.h"

namespace weft {
namespace cuda {
namespace {

// The outcome dtypes of _sample_multinomial (its `dtype` choices).
#define WEFT_MULTINOMIAL_OUT_SWITCH(dt, op, T, ...)                        \
  switch (dt) {                                                            \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }   \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }  \
    case ::weft::DType::kFloat16: { using T = ::weft::gpu_half; __VA_ARGS__ break; } \
    case ::weft::DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }   \
    case ::weft::DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }   \
    default: ::weft::cuda::UnsupportedDType(op, dt);                       \
  }

// Draw i (of m per row) of row i / m: the CPU's rule (sampler_rules.h).
template <typename TD, typename TS>
void MultinomialT(const OpContext& ctx, uint64_t seed, const TensorView& data, int64_t k, int64_t m,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const TD* dp = data.ptr<TD>();
  TS* sp = out[0].ptr<TS>();
  TD* lp = out.size() > 1 && req[1] != OpReq::kNull ? out[1].ptr<TD>() : nullptr;
  const OpReq r0 = req[0], r1 = out.size() > 1 ? req[1] : OpReq::kNull;
  Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
    const TD* row = dp + (i / m) * k;
    const double u = Uniform53(seed, static_cast<uint64_t>(i));
    const int64_t s = sampler::CategoricalOutcome(row, k, u);
    if (r0 != OpReq::kNull) Assign(sp, i, r0, static_cast<TS>(s));
    if (lp != nullptr) Assign(lp, i, r1, static_cast<TD>(std::log(static_cast<double>(row[s]))));
  });
}

void SampleMultinomial(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const uint64_t seed = DrawSeed(ctx, "_sample_multinomial");
  const int64_t k = in[0].shape[in[0].ndim() - 1];
  const int64_t rows = k > 0 ? in[0].Size() / k : 0;
  if (rows == 0 || out[0].Size() == 0) return;
  const int64_t m = out[0].Size() / rows;
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_sample_multinomial", TD, {
    WEFT_MULTINOMIAL_OUT_SWITCH(out[0].dtype, "_sample_multinomial", TS, {
      MultinomialT<TD, TS>(ctx, seed, in[0], k, m, req, out);
    })
  })
}

// grad[r, c] = sum over draws j of row r with outcome c of g[r, j] / data[r, c].
template <typename TD, typename TS>
void MultinomialBackwardT(const OpContext& ctx, const std::vector<TensorView>& in, int64_t k, int64_t m, OpReq req,
                          const TensorView& out) {
  const TD* gp = in[0].ptr<TD>();
  const TD* dp = in[1].ptr<TD>();
  const TS* sp = in[2].ptr<TS>();
  TD* op = out.ptr<TD>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const int64_t r = i / k, c = i % k;
    double acc = 0;
    bool drawn = false;
    for (int64_t j = 0; j < m; ++j)
      if (static_cast<int64_t>(sp[r * m + j]) == c) {
        acc += static_cast<double>(gp[r * m + j]);
        drawn = true;
      }
    Assign(op, i, req, static_cast<TD>(drawn ? acc / static_cast<double>(dp[i]) : 0.0));
  });
}

void BackwardSampleMultinomial(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t k = in[1].shape[in[1].ndim() - 1];
  const int64_t rows = k > 0 ? in[1].Size() / k : 0;
  const int64_t m = rows > 0 ? in[2].Size() / rows : 0;
  WEFT_GPU_REAL_SWITCH(in[1].dtype, "_backward_sample_multinomial", TD, {
    WEFT_MULTINOMIAL_OUT_SWITCH(in[2].dtype, "_backward_sample_multinomial", TS, {
      MultinomialBackwardT<TD, TS>(ctx, in, k, m, req[0], out[0]);
    })
  })
}

// out row i (req)= input row perm[i]; the input was copied to `src` first (the
// output may be the input).
template <typename T>
void GatherRowsT(const OpContext& ctx, const int64_t* perm, const void* src, int64_t row, OpReq req,
                 const TensorView& out) {
  const T* sp = static_cast<const T*>(src);
  T* op = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) { Assign(op, i, req, sp[perm[i / row] * row + i % row]); });
}

void Shuffle(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  std::mt19937_64 gen(DrawSeed(ctx, "_shuffle"));
  const int64_t n = in[0].ndim() == 0 ? 1 : in[0].shape[0];
  const std::vector<int64_t> perm = random_perm::Permutation(gen, n);
  if (req[0] == OpReq::kNull || in[0].Size() == 0) return;
  const size_t perm_bytes = perm.size() * sizeof(int64_t);
  const size_t data_bytes = static_cast<size_t>(in[0].Size()) * DTypeSize(in[0].dtype);
  char* scratch = static_cast<char*>(Scratch(ctx, perm_bytes + data_bytes));
  gpu::MemcpyAsync(scratch, perm.data(), perm_bytes, StreamOf(ctx));
  gpu::MemcpyAsync(scratch + perm_bytes, in[0].data, data_bytes, StreamOf(ctx));
  gpu::StreamSync(StreamOf(ctx));  // perm lives on this host stack
  const int64_t* dperm = reinterpret_cast<const int64_t*>(scratch);
  const int64_t row = in[0].Size() / n;
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_shuffle", T, {
    GatherRowsT<T>(ctx, dperm, scratch + perm_bytes, row, req[0], out[0]);
  })
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(SampleMultinomialGpu, SampleMultinomial)  // _sample_multinomial
WEFT_GPU_KERNEL_EXPORT(BackwardSampleMultinomialGpu, BackwardSampleMultinomial)  // _backward_sample_multinomial
WEFT_GPU_KERNEL_EXPORT(ShuffleGpu, Shuffle)  // _shuffle

}  // namespace cuda
}  // namespace weft
