// GPU kernels of _ravel_multi_index and _unravel_index (core/op/index/ravel.cc):
// indices read as int64 (IndicesToInt64GPU), results stored in the input's dtype.
#include <vector>

#include "core/op/common/tensor_util.cuh"

namespace weft {
namespace cuda {
namespace {

void Ravel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const Dims shape = ToDims(Shape(p.GetTuple("shape")));
  const int64_t n = out[0].Size();
  int64_t* idx = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(in[0].Size()) * 8 + 8));
  IndicesToInt64GPU(ctx, in[0], idx);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_ravel_multi_index", T, {
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, n, [=] WEFT_HD(int64_t j) {
      int64_t flat = 0;
      for (int i = 0; i < shape.ndim; ++i) flat = flat * shape.d[i] + idx[i * n + j];
      StoreDouble(o, j, r, static_cast<double>(flat));
    });
  });
}

void Unravel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const Dims shape = ToDims(Shape(p.GetTuple("shape")));
  const int64_t n = in[0].Size();
  int64_t* idx = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(n) * 8 + 8));
  IndicesToInt64GPU(ctx, in[0], idx);
  WEFT_GPU_ALL_SWITCH(out[0].dtype, "_unravel_index", T, {
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, n, [=] WEFT_HD(int64_t j) {
      int64_t v = idx[j];
      for (int i = shape.ndim - 1; i >= 0; --i) {
        StoreDouble(o, i * n + j, r, static_cast<double>(v % shape.d[i]));
        v /= shape.d[i];
      }
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(RavelMultiIndexGpu, Ravel)
WEFT_GPU_KERNEL_EXPORT(UnravelIndexGpu, Unravel)

}  // namespace cuda
}  // namespace weft
