// GPU kernels of the random samplers (_random_uniform, _random_normal,
// _random_randint; core/op/random/random.cc) and of Dropout / _backward_Dropout
// (core/op/random/dropout.cc). Draws follow Note [GPU random draws] in
// gpu_random.cuh: one seed per op from the device generator, then element i's
// value from (seed, i). The distributions, bounds, rejection rules, mask values
// and scaling are those of the CPU kernels (core/op/random/random_cpu.cc,
// dropout_embedding.cc); only the random draws themselves differ.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/op/random/gpu_random.cuh"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace {

// ---- samplers ----

// Uniform in [low, high) with as many random bits as T's mantissa; float32
// draws that round up to `high` are drawn again (attempt k uses counter
// (i, k)), as the CPU rejects them.
template <typename T>
void UniformT(const OpContext& ctx, uint64_t seed, double low, double high, OpReq req, const TensorView& out) {
  T* op = out.ptr<T>();
  // The CPU's MantissaBits and rejection (random_cpu.cc): a float32 or 16-bit
  // result may round up to `high` even when the double is below it.
  const int bits = sizeof(T) == 8 ? 53 : sizeof(T) == 4 ? 24 : std::is_same<T, gpu_half>::value ? 11 : 8;
  const bool reject = sizeof(T) < 8;
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const uint64_t idx = static_cast<uint64_t>(i);
    double d = low + (high - low) * UnitFromBits(Philox(seed, idx, 0).a, bits);
    for (uint64_t k = 1;
         reject && high > low && static_cast<double>(static_cast<float>(T(static_cast<float>(d)))) >= high; ++k)
      d = low + (high - low) * UnitFromBits(Philox(seed, idx, k).a, bits);
    Assign(op, i, req, static_cast<T>(d));
  });
}

void RandomUniform(const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const uint64_t seed = DrawSeed(ctx, "_random_uniform");
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_random_uniform", T, {
    UniformT<T>(ctx, seed, p.GetFloat("low"), p.GetFloat("high"), req[0], out[0]);
  })
}

// Normal(loc, scale) by Box-Muller: elements 2q and 2q + 1 share the pair of
// uniforms of counter q and take its cosine and sine, as on the CPU.
template <typename T>
void NormalT(const OpContext& ctx, uint64_t seed, double loc, double scale, OpReq req, const TensorView& out) {
  T* op = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const double two_pi = 6.283185307179586476925286766559;
    const Random128 r = Philox(seed, static_cast<uint64_t>(i / 2), 0);
    const double u1 = 1.0 - UnitFromBits(r.a, 53);  // (0, 1]: log stays finite
    const double u2 = UnitFromBits(r.b, 53);
    const double rad = std::sqrt(-2.0 * std::log(u1));
    const double v = loc + scale * rad * (i % 2 == 0 ? std::cos(two_pi * u2) : std::sin(two_pi * u2));
    Assign(op, i, req, static_cast<T>(v));
  });
}

void RandomNormal(const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const uint64_t seed = DrawSeed(ctx, "_random_normal");
  if (req[0] == OpReq::kNull) return;
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_random_normal", T, {
    NormalT<T>(ctx, seed, p.GetFloat("loc"), p.GetFloat("scale"), req[0], out[0]);
  })
}

// Uniform integers in [low, high), unbiased by rejection (draws above the
// largest multiple of the range are drawn again with the next attempt).
template <typename T>
void RandIntT(const OpContext& ctx, uint64_t seed, int64_t low, int64_t high, OpReq req, const TensorView& out) {
  T* op = out.ptr<T>();
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % range + 1) % range;
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    uint64_t r = Philox(seed, static_cast<uint64_t>(i), 0).a;
    for (uint64_t k = 1; r > limit; ++k) r = Philox(seed, static_cast<uint64_t>(i), k).a;
    Assign(op, i, req, static_cast<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + r % range)));
  });
}

void RandomRandInt(const OpContext& ctx, const Params& p, const std::vector<TensorView>&,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const uint64_t seed = DrawSeed(ctx, "_random_randint");
  const int64_t low = p.GetInt("low"), high = p.GetInt("high");
  WEFT_CHECK(low < high, kInvalidArgument)
      << "_random_randint: parameter 'low' (" << low << ") must be < 'high' (" << high << ")";
  if (req[0] == OpReq::kNull) return;
  switch (out[0].dtype) {
    case DType::kInt32: RandIntT<int32_t>(ctx, seed, low, high, req[0], out[0]); break;
    case DType::kInt64: RandIntT<int64_t>(ctx, seed, low, high, req[0], out[0]); break;
    default: UnsupportedDType("_random_randint", out[0].dtype);
  }
}

// ---- Dropout ----

bool DropoutApplies(const OpContext& ctx, const Params& p) {
  return (ctx.is_train || p.GetString("mode") == "always") && p.GetFloat("p") > 0;
}

// Flat index into `small` (same ndim, dims 1 where broadcast) of element i of `big`.
WEFT_HD inline int64_t BroadcastIndex(int64_t i, const Dims& big, const Dims& small) {
  int64_t idx = 0, stride = 1;
  for (int d = big.ndim - 1; d >= 0; --d) {
    const int64_t coord = i % big[d];
    i /= big[d];
    if (small[d] != 1) idx += coord * stride;
    stride *= small[d];
  }
  return idx;
}

// out (req)= a * broadcast(m), or a copy of a when m is null.
template <typename T>
void MulBroadcastT(const OpContext& ctx, const TensorView& a, const T* m, const Dims& big, const Dims& small,
                   bool same, OpReq req, const TensorView& out) {
  const T* ap = a.ptr<T>();
  T* op = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    using A = AccT<T>;
    const A v = m == nullptr ? static_cast<A>(ap[i])
                             : static_cast<A>(ap[i]) * static_cast<A>(m[same ? i : BroadcastIndex(i, big, small)]);
    Assign(op, i, req, v);
  });
}

// The mask value of mask element j: 1/(1-p) with probability 1-p, else 0 (all
// 0 when p >= 1), stored in T as on the CPU.
template <typename T>
WEFT_HD inline T MaskValue(uint64_t seed, int64_t j, double keep, T scale) {
  return Uniform53(seed, static_cast<uint64_t>(j)) < keep ? scale : T(0);
}

template <typename T>
void DropoutT(const OpContext& ctx, uint64_t seed, double p, const TensorView& x, const std::vector<OpReq>& req,
              const TensorView& out, const TensorView& mask) {
  const double keep = 1.0 - p;
  const T scale = keep > 0 ? static_cast<T>(1.0 / keep) : T(0);
  // Both kernels derive the mask from (seed, j), so the output never reads
  // the mask array (which kAddTo accumulates into).
  if (req[1] != OpReq::kNull) {
    T* mp = mask.ptr<T>();
    const OpReq rm = req[1];
    Launch(ctx, mask.Size(), [=] WEFT_HD(int64_t j) { Assign(mp, j, rm, MaskValue<T>(seed, j, keep, scale)); });
  }
  if (req[0] == OpReq::kNull) return;
  const T* xp = x.ptr<T>();
  T* op = out.ptr<T>();
  const bool same = mask.shape == out.shape;
  const Dims big = ToDims(out.shape), small = ToDims(mask.shape);
  const OpReq ro = req[0];
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const T m = MaskValue<T>(seed, same ? i : BroadcastIndex(i, big, small), keep, scale);
    Assign(op, i, ro, static_cast<AccT<T>>(xp[i]) * static_cast<AccT<T>>(m));
  });
}

template <typename T>
void FillT(const OpContext& ctx, OpReq req, const TensorView& out, T v) {
  T* op = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) { Assign(op, i, req, v); });
}

void Dropout(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  const bool applies = DropoutApplies(ctx, p);
  const uint64_t seed = applies ? DrawSeed(ctx, "Dropout") : 0;
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "Dropout", T, {
    if (applies) {
      DropoutT<T>(ctx, seed, p.GetFloat("p"), in[0], req, out[0], out[1]);
    } else {
      const Dims d = ToDims(out[0].shape);
      if (req[0] != OpReq::kNull) MulBroadcastT<T>(ctx, in[0], nullptr, d, d, true, req[0], out[0]);
      if (req[1] != OpReq::kNull) FillT<T>(ctx, req[1], out[1], T(1));
    }
  })
}

void DropoutBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const bool applies = DropoutApplies(ctx, p);
  const bool same = in[1].shape == out[0].shape;
  const Dims big = ToDims(out[0].shape), small = ToDims(in[1].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_Dropout", T, {
    MulBroadcastT<T>(ctx, in[0], applies ? in[1].ptr<T>() : nullptr, big, small, same, req[0], out[0]);
  })
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(RandomUniformGpu, RandomUniform)  // _random_uniform
WEFT_GPU_KERNEL_EXPORT(RandomNormalGpu, RandomNormal)  // _random_normal
WEFT_GPU_KERNEL_EXPORT(RandomRandintGpu, RandomRandInt)  // _random_randint
WEFT_GPU_KERNEL_EXPORT(DropoutGpu, Dropout)  // Dropout
WEFT_GPU_KERNEL_EXPORT(BackwardDropoutGpu, DropoutBackward)  // _backward_Dropout

}  // namespace cuda
}  // namespace weft
