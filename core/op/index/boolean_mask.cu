// GPU kernels of _contrib_boolean_mask and its backward. One thread walks the
// mask once to give every kept slice its position in the output (a serial
// prefix count in scratch memory: masks are short next to the data); then one
// thread per element of the data moves it (forward: gathers into the output;
// backward: the output gradient scattered back, zeros at the dropped slices).
#include <cstdint>
#include <vector>

#include "core/op/axis_util.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/index/boolean_mask_rules.h"
#include "core/op/index/boolean_mask_gpu.h"

namespace weft {
namespace cuda {
namespace {

// pos[i] = the output slice of data slice i, or -1 when index[i] == 0.
int64_t* SlicePositions(const OpContext& ctx, const TensorView& index) {
  const int64_t n = index.Size();
  int64_t* pos = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(n > 0 ? n : 1) * sizeof(int64_t)));
  WEFT_GPU_ALL_SWITCH(index.dtype, "_contrib_boolean_mask", M, {
    const M* m = index.ptr<M>();
    Launch(ctx, 1, [=] WEFT_HD(int64_t) {
      int64_t j = 0;
      for (int64_t i = 0; i < n; ++i) pos[i] = m[i] != M(0) ? j++ : -1;
    });
  });
  return pos;
}

int AxisOf(const Params& p, const Shape& data) {
  return tensor::NormalizeAxis(p.GetInt("axis"), data.ndim(), "_contrib_boolean_mask", "data");
}

void Forward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int axis = AxisOf(p, in[0].shape);
  const MaskGeom g = MaskGeomOf(in[0].shape, axis);
  const int64_t kept = out[0].shape[axis], n = g.n, inner = g.inner;
  const int64_t* pos = SlicePositions(ctx, in[1]);
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(in[0].dtype, "_contrib_boolean_mask", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    Launch(ctx, in[0].Size(), [=] WEFT_HD(int64_t e) {
      const int64_t k = e % inner, i = (e / inner) % n, o = e / (inner * n);
      const int64_t j = pos[i];
      if (j >= 0) Assign(y, (o * kept + j) * inner + k, r, x[e]);
    });
  });
}

void Backward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const int axis = AxisOf(p, in[1].shape);
  const MaskGeom g = MaskGeomOf(in[1].shape, axis);
  const int64_t kept = in[0].shape[axis], n = g.n, inner = g.inner;
  const int64_t* pos = SlicePositions(ctx, in[2]);
  const OpReq r = req[0];
  WEFT_GPU_ALL_SWITCH(in[1].dtype, "_backward_contrib_boolean_mask", T, {
    const T* dy = in[0].ptr<T>();
    T* dx = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t e) {
      const int64_t k = e % inner, i = (e / inner) % n, o = e / (inner * n);
      const int64_t j = pos[i];
      Assign(dx, e, r, j >= 0 ? dy[(o * kept + j) * inner + k] : T(0));
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(BooleanMaskGpu, Forward)
WEFT_GPU_KERNEL_EXPORT(BackwardBooleanMaskGpu, Backward)

}  // namespace cuda
}  // namespace weft
