// GPU kernels of topk, sort, argsort and _backward_topk. One thread per input
// element counts the elements of its row that come before it (Note [Sort
// order] in topk_rules.h): that rank places it, so the CPU's sort and these
// ranks agree exactly. O(n) work per element: rows of a few thousand.
#include <vector>

#include "core/op/common/tensor_util.cuh"
#include "core/op/sort/topk_rules.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void MoveValues(const OpContext& ctx, const T* data, const int64_t* sel, int64_t total, int64_t n, int64_t k,
                int64_t inner, OpReq req, T* out) {
  Launch(ctx, total, [=] WEFT_HD(int64_t s) {
    const int64_t i = s % inner, o = s / inner / k;
    Assign(out, s, req, data[(o * n + sel[s]) * inner + i]);
  });
}

void Run(const tensor::TopKPlan& t, const OpContext& ctx, const TensorView& data, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  const int64_t N = data.Size(), n = t.n, k = t.k, inner = t.inner, kept = t.outer * k * inner;
  const bool ascend = t.ascend, mask = t.ret == tensor::TopKRet::kMask;
  std::vector<void*> buf = ScratchPieces(ctx, {static_cast<size_t>(N) * 8, static_cast<size_t>(kept) * 8,
                                               static_cast<size_t>(mask ? N : kept) * 8});
  double* v = static_cast<double*>(buf[0]);
  int64_t* sel = static_cast<int64_t*>(buf[1]);
  double* res = static_cast<double*>(buf[2]);
  ValuesToDoubleGPU(ctx, data, v);
  Launch(ctx, N, [=] WEFT_HD(int64_t e) {
    const int64_t i = e % inner, j = (e / inner) % n, o = e / inner / n;
    const double* row = v + o * n * inner + i;
    const double x = row[j * inner];
    int64_t rank = 0;
    for (int64_t jj = 0; jj < n; ++jj) rank += tensor::SortBefore(row[jj * inner], jj, x, j, ascend) ? 1 : 0;
    if (rank < k) sel[(o * k + rank) * inner + i] = j;
    if (mask) res[e] = rank < k ? 1.0 : 0.0;
  });
  if (mask) {
    DoublesToGPU(ctx, res, req[0], out[0]);
    return;
  }
  const size_t idx_out = t.ret == tensor::TopKRet::kIndices ? 0 : 1;
  if (idx_out < out.size() && req[idx_out] != OpReq::kNull) {
    Launch(ctx, kept, [=] WEFT_HD(int64_t s) { res[s] = static_cast<double>(sel[s]); });
    DoublesToGPU(ctx, res, req[idx_out], out[idx_out]);
  }
  if (t.ret == tensor::TopKRet::kIndices || req[0] == OpReq::kNull) return;
  WEFT_GPU_ALL_SWITCH(data.dtype, "topk", T, {
    MoveValues<T>(ctx, data.ptr<T>(), sel, kept, n, k, inner, req[0], out[0].ptr<T>());
  });
}

void TopK(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  Run(tensor::MakeTopKPlan("topk", p, in[0].shape), ctx, in[0], req, out);
}
void Sort(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
          const std::vector<TensorView>& out) {
  Run(tensor::MakeTopKPlan("sort", p, in[0].shape), ctx, in[0], req, out);
}
void ArgSort(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  Run(tensor::MakeTopKPlan("argsort", p, in[0].shape), ctx, in[0], req, out);
}

template <typename T>
void Scatter(const OpContext& ctx, const T* og, const int64_t* sel, int64_t total, int64_t n, int64_t k,
             int64_t inner, T* grad) {
  // topk's indices are distinct within a row, so each thread adds to its own element.
  Launch(ctx, total, [=] WEFT_HD(int64_t s) {
    const int64_t i = s % inner, o = s / inner / k, j = sel[s];
    if (j >= 0 && j < n) grad[(o * n + j) * inner + i] += og[s];
  });
}

// inputs (out_grad, indices, data).
void BackwardTopK(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const tensor::TopKPlan t = tensor::MakeTopKPlan("topk", p, in[2].shape);
  int64_t* sel = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(in[1].Size()) * 8 + 8));
  IndicesToInt64GPU(ctx, in[1], sel);
  if (req[0] != OpReq::kAddTo && out[0].Size() > 0)
    gpu::MemsetAsync(out[0].data, 0, static_cast<size_t>(out[0].Size()) * DTypeSize(out[0].dtype), StreamOf(ctx));
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_backward_topk", T, {
    Scatter<T>(ctx, in[0].ptr<T>(), sel, in[1].Size(), t.n, t.k, t.inner, out[0].ptr<T>());
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(TopKGpu, TopK)
WEFT_GPU_KERNEL_EXPORT(SortGpu, Sort)
WEFT_GPU_KERNEL_EXPORT(ArgSortGpu, ArgSort)
WEFT_GPU_KERNEL_EXPORT(BackwardTopKGpu, BackwardTopK)

}  // namespace cuda
}  // namespace weft
