// GPU kernels of fill_element_0index, _onehot_encode, argmax_channel and
// batch_take (core/op/index/legacy_index.cc); the CPU's rules
// (legacy_index_cpu.h): indices clipped to [0, cols), the first maximum.
#include <vector>

#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

WEFT_HD inline int64_t ClipIndex(int64_t i, int64_t n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

void FillElement0Index(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t rows = in[2].Size(), cols = rows > 0 ? in[0].Size() / rows : 0;
  std::vector<void*> buf = ScratchPieces(ctx, {static_cast<size_t>(rows) * 8 + 8});
  int64_t* k = static_cast<int64_t*>(buf[0]);
  IndicesToInt64GPU(ctx, in[2], k);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "fill_element_0index", T, {
    const T* lhs = in[0].ptr<T>();
    const T* val = in[1].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, in[0].Size(), [=] WEFT_HD(int64_t e) {
      const int64_t i = e / cols, j = e % cols;
      Assign(o, e, r, j == ClipIndex(k[i], cols) ? val[i] : lhs[e]);
    });
  });
}

void OneHotEncode(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t rows = in[0].Size(), cols = rows > 0 ? out[0].Size() / rows : 0;
  int64_t* k = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(rows) * 8 + 8));
  IndicesToInt64GPU(ctx, in[0], k);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_onehot_encode", T, {
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t e) {
      Assign(o, e, r, static_cast<T>(k[e / cols] == e % cols ? 1 : 0));
    });
  });
}

void ArgmaxChannel(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t cols = in[0].ndim() > 0 ? in[0].shape[in[0].ndim() - 1] : 1;
  const int64_t rows = cols > 0 ? in[0].Size() / cols : 0;
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "argmax_channel", T, {
    const T* v = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, rows, [=] WEFT_HD(int64_t i) {
      int64_t best = 0;
      for (int64_t j = 1; j < cols; ++j)
        if (static_cast<double>(v[i * cols + j]) > static_cast<double>(v[i * cols + best])) best = j;
      Assign(o, i, r, static_cast<T>(best));
    });
  });
}

void BatchTake(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int64_t rows = in[1].Size(), cols = rows > 0 ? in[0].Size() / rows : 0;
  int64_t* k = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(rows) * 8 + 8));
  IndicesToInt64GPU(ctx, in[1], k);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "batch_take", T, {
    const T* a = in[0].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, rows, [=] WEFT_HD(int64_t i) { Assign(o, i, r, a[i * cols + ClipIndex(k[i], cols)]); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(FillElement0IndexGpu, FillElement0Index)
WEFT_GPU_KERNEL_EXPORT(OneHotEncodeGpu, OneHotEncode)
WEFT_GPU_KERNEL_EXPORT(ArgmaxChannelGpu, ArgmaxChannel)
WEFT_GPU_KERNEL_EXPORT(BatchTakeGpu, BatchTake)

}  // namespace cuda
}  // namespace weft
