// GPU kernels of the unary math operators (core/op/elemwise_unary.cc): one
// kernel per dtype with the UnaryKind switched inside (Note [Elementwise GPU
// instantiations] in elemwise_math.cuh), the CPU's numeric rules throughout.
#include <vector>

#include "core/op/cuda/elemwise_math.cuh"
#include "core/op/cuda/kernel.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void UnaryLaunch(const OpContext& ctx, int kind, const T* in, T* out, int64_t n, OpReq req) {
  Launch(ctx, n, [=] WEFT_HD(int64_t i) {
    using C = elem::Acc<T>;
    elem::Put(out, i, req, elem::ToStorage<T>(elem::UnaryOp<C>(kind, static_cast<C>(in[i]))));
  });
}

struct UnaryEntry {
  const char* name;
  elem::UnaryKind kind;
};

const UnaryEntry kUnaryOps[] = {
    {"abs", elem::UnaryKind::kAbs},       {"negative", elem::UnaryKind::kNegative},
    {"exp", elem::UnaryKind::kExp},       {"log", elem::UnaryKind::kLog},
    {"log1p", elem::UnaryKind::kLog1p},   {"expm1", elem::UnaryKind::kExpm1},
    {"sqrt", elem::UnaryKind::kSqrt},     {"rsqrt", elem::UnaryKind::kRsqrt},
    {"square", elem::UnaryKind::kSquare}, {"sin", elem::UnaryKind::kSin},
    {"cos", elem::UnaryKind::kCos},       {"tan", elem::UnaryKind::kTan},
    {"tanh", elem::UnaryKind::kTanh},     {"sigmoid", elem::UnaryKind::kSigmoid},
    {"relu", elem::UnaryKind::kRelu},     {"sign", elem::UnaryKind::kSign},
    {"floor", elem::UnaryKind::kFloor},   {"ceil", elem::UnaryKind::kCeil},
    {"round", elem::UnaryKind::kRound},   {"reciprocal", elem::UnaryKind::kReciprocal},
};

bool RegisterUnaryGPU() {
  for (const UnaryEntry& e : kUnaryOps) {
    const int kind = static_cast<int>(e.kind);
    const char* name = e.name;
    OpRegistry::Get()->SetGpuKernel(
        name, [kind, name](const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          if (req[0] == OpReq::kNull) return;
          WEFT_GPU_ALL_SWITCH(out[0].dtype, name, T,
                              { UnaryLaunch<T>(ctx, kind, in[0].ptr<T>(), out[0].ptr<T>(), out[0].Size(), req[0]); });
        });
  }
  return true;
}

[[maybe_unused]] const bool kUnaryGPURegistered = RegisterUnaryGPU();

}  // namespace
}  // namespace cuda
}  // namespace weft
