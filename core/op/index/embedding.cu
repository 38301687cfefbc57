// GPU kernels of Embedding and _backward_Embedding (core/op/index/embedding.cc).
// The gradient is a gather on the GPU: each weight row element loops over the
// indices that hit it (in index order, accumulating in the storage type like
// the CPU).
#include <cstdint>
#include <string>
#include <vector>

#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

// ---- Embedding ----

// The CPU's ClippedIndices: truncated toward zero, clipped to [0, rows).
WEFT_HD inline int64_t EmbeddingRow(double d, int64_t rows) {
  return !(d > 0) ? 0 : (d >= static_cast<double>(rows - 1) ? rows - 1 : static_cast<int64_t>(d));
}

template <typename T>
void EmbeddingForwardT(const OpContext& ctx, int64_t size, const double* idx, const T* w, int64_t rows, int64_t dim,
                       OpReq req, T* out) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    Assign(out, e, req, w[EmbeddingRow(idx[e / dim], rows) * dim + e % dim]);
  });
}

void EmbeddingForward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const int64_t rows = in[1].shape[0], dim = in[1].shape[1];
  double* idx = static_cast<double*>(Scratch(ctx, static_cast<size_t>(in[0].Size()) * sizeof(double)));
  ValuesToDoubleGPU(ctx, in[0], idx);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "Embedding", T, {
    EmbeddingForwardT<T>(ctx, out[0].Size(), idx, in[1].ptr<T>(), rows, dim, req[0], out[0].ptr<T>());
  });
}

// gw[r, c] (req)= the sum of g[i, c] over the indices i of row r, added in
// index order like the CPU's loop.
template <typename T>
void EmbeddingBackwardT(const OpContext& ctx, int64_t size, const double* idx, int64_t count, const T* g,
                        int64_t rows, int64_t dim, OpReq req, T* gw) {
  Launch(ctx, size, [=] WEFT_HD(int64_t e) {
    const int64_t r = e / dim, c = e % dim;
    using A = AccT<T>;  // float for the 16-bit types
    A v = req == OpReq::kAddTo ? static_cast<A>(gw[e]) : A(0);
    for (int64_t i = 0; i < count; ++i)
      if (EmbeddingRow(idx[i], rows) == r) v = v + static_cast<A>(g[i * dim + c]);
    gw[e] = static_cast<T>(v);
  });
}

void EmbeddingBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  // data gets a zero gradient.
  if (req[0] != OpReq::kAddTo && req[0] != OpReq::kNull && out[0].Size() > 0)
    gpu::MemsetAsync(out[0].data, 0, static_cast<size_t>(out[0].Size()) * DTypeSize(out[0].dtype), StreamOf(ctx));
  if (req[1] == OpReq::kNull || out[1].Size() == 0) return;
  const int64_t rows = out[1].shape[0], dim = out[1].shape[1];
  const int64_t count = in[1].Size();
  double* idx = static_cast<double*>(Scratch(ctx, static_cast<size_t>(count > 0 ? count : 1) * sizeof(double)));
  ValuesToDoubleGPU(ctx, in[1], idx);
  WEFT_GPU_REAL_SWITCH(out[1].dtype, "_backward_Embedding", T, {
    EmbeddingBackwardT<T>(ctx, out[1].Size(), idx, count, in[0].ptr<T>(), rows, dim, req[1], out[1].ptr<T>());
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(EmbeddingGpu, EmbeddingForward)  // Embedding
WEFT_GPU_KERNEL_EXPORT(BackwardEmbeddingGpu, EmbeddingBackward)  // _backward_Embedding

}  // namespace cuda
}  // namespace weft
