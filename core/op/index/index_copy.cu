// GPU kernels of _contrib_index_copy and _contrib_backward_index_copy
// (core/op/index/index_copy.cc): a row map (which new row lands on each old
// row, -1 for none) built once, then one thread per output element.
#include <vector>

#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

// map[r] = i when index[i] == r (index values outside [0, n) are skipped);
// *idx_out gets the indices as int64. One Scratch block holds both.
int64_t* RowMap(const OpContext& ctx, const TensorView& index, int64_t n, int64_t** idx_out) {
  const int64_t m = index.Size();
  std::vector<void*> buf = ScratchPieces(ctx, {static_cast<size_t>(m) * 8 + 8, static_cast<size_t>(n) * 8 + 8});
  int64_t* idx = static_cast<int64_t*>(buf[0]);
  int64_t* map = static_cast<int64_t*>(buf[1]);
  IndicesToInt64GPU(ctx, index, idx);
  *idx_out = idx;
  Launch(ctx, n, [=] WEFT_HD(int64_t r) { map[r] = -1; });
  Launch(ctx, m, [=] WEFT_HD(int64_t i) {
    if (idx[i] >= 0 && idx[i] < n) map[idx[i]] = i;
  });
  return map;
}

// inputs (old_tensor, index_vector, new_tensor).
void IndexCopy(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t n = in[0].shape[0], rs = n > 0 ? in[0].Size() / n : 0;
  int64_t* idx = nullptr;
  const int64_t* map = RowMap(ctx, in[1], n, &idx);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_contrib_index_copy", T, {
    const T* old = in[0].ptr<T>();
    const T* nw = in[2].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t e) {
      const int64_t i = map[e / rs];
      Assign(o, e, r, i >= 0 ? nw[i * rs + e % rs] : old[e]);
    });
  });
}

// inputs (out_grad, old_tensor, index_vector, new_tensor); outputs the three grads.
void BackwardIndexCopy(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const int64_t n = in[1].shape[0], rs = n > 0 ? in[1].Size() / n : 0, m = in[2].Size();
  int64_t* idx = nullptr;
  const int64_t* map = RowMap(ctx, in[2], n, &idx);
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_contrib_backward_index_copy", T, {
    const T* g = in[0].ptr<T>();
    if (req[0] != OpReq::kNull) {
      T* o = out[0].ptr<T>();
      const OpReq r = req[0];
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t e) { Assign(o, e, r, map[e / rs] >= 0 ? T(0) : g[e]); });
    }
    if (req[2] != OpReq::kNull) {
      T* o = out[2].ptr<T>();
      const OpReq r = req[2];
      Launch(ctx, m * rs, [=] WEFT_HD(int64_t e) {
        const int64_t k = idx[e / rs];
        Assign(o, e, r, k >= 0 && k < n ? g[k * rs + e % rs] : T(0));
      });
    }
  });
  if (req[1] != OpReq::kNull && req[1] != OpReq::kAddTo && out[1].Size() > 0)
    gpu::MemsetAsync(out[1].data, 0, static_cast<size_t>(out[1].Size()) * DTypeSize(out[1].dtype), StreamOf(ctx));
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(IndexCopyGpu, IndexCopy)
WEFT_GPU_KERNEL_EXPORT(BackwardIndexCopyGpu, BackwardIndexCopy)

}  // namespace cuda
}  // namespace weft
