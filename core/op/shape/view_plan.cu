// GPU kernels of the one-strided-copy ops: the plan of view_plan.cc run by
// StridedCopyGPU, after zeroing the output when the plan writes part of it.
#include <vector>

#include "core/op/common/tensor_util.cuh"
#include "core/op/shape/view_plan.h"

namespace weft {
namespace cuda {
namespace {

void Run(tensor::ViewPlanFn fn, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const tensor::ViewPlan v = fn(p, in[0].shape, out[0].shape);
  if (v.zero_fill && req[0] != OpReq::kAddTo && out[0].Size() > 0)
    gpu::MemsetAsync(out[0].data, 0, static_cast<size_t>(out[0].Size()) * DTypeSize(out[0].dtype), StreamOf(ctx));
  StridedCopyGPU(ctx, out[0].dtype, v.shape, in[0].data, v.src_off, v.src_stride, out[0].data, v.dst_off,
                 v.dst_stride, req[0]);
}

template <typename T>
void SumRows(const OpContext& ctx, const tensor::SumPlan& plan, const T* in, OpReq req, T* out, int64_t n) {
  const Dims outer = ToDims(Shape(plan.outer)), os = ToDims(Shape(plan.outer_stride));
  const Dims inner = ToDims(Shape(plan.inner)), is = ToDims(Shape(plan.inner_stride));
  const int64_t m = Shape(plan.inner).Size();
  Launch(ctx, n, [=] WEFT_HD(int64_t o) {
    const int64_t base = OffsetOf(o, outer, os);
    double acc = 0;
    for (int64_t i = 0; i < m; ++i) acc += static_cast<double>(in[base + OffsetOf(i, inner, is)]);
    Assign(out, o, req, static_cast<T>(acc));
  });
}

void RunSum(tensor::SumPlan (*fn)(const Params&, const Shape&, const Shape&), const OpContext& ctx, const Params& p,
            const std::vector<TensorView>& in, const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const tensor::SumPlan plan = fn(p, in[0].shape, out[0].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_backward_tile/_backward_repeat", T, {
    SumRows<T>(ctx, plan, in[0].ptr<T>(), req[0], out[0].ptr<T>(), out[0].Size());
  });
}

void BackwardTileImpl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunSum(tensor::BackwardTilePlan, ctx, p, in, req, out);
}
void BackwardRepeatImpl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RunSum(tensor::BackwardRepeatPlan, ctx, p, in, req, out);
}

void SplitV2Impl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    const tensor::ViewPlan v = tensor::SplitV2Plan(p, in[0].shape, static_cast<int>(i));
    StridedCopyGPU(ctx, out[i].dtype, v.shape, in[0].data, v.src_off, v.src_stride, out[i].data, v.dst_off,
                   v.dst_stride, req[i]);
  }
}

#define WEFT_VIEW_GPU(Name, Plan)                                                                  \
  void Name##Impl(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,         \
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {             \
    Run(tensor::Plan, ctx, p, in, req, out);                                                       \
  }
WEFT_VIEW_GPU(Tile, TilePlan)
WEFT_VIEW_GPU(Repeat, RepeatPlan)
WEFT_VIEW_GPU(Reverse, ReversePlan)
WEFT_VIEW_GPU(SwapAxis, SwapAxisPlan)
WEFT_VIEW_GPU(DepthToSpace, DepthToSpacePlan)
WEFT_VIEW_GPU(SpaceToDepth, SpaceToDepthPlan)
WEFT_VIEW_GPU(Diag, DiagPlan)
WEFT_VIEW_GPU(BackwardDiag, BackwardDiagPlan)
WEFT_VIEW_GPU(SliceLike, SliceLikePlan)
WEFT_VIEW_GPU(BackwardSliceLike, BackwardSliceLikePlan)
WEFT_VIEW_GPU(Crop, CropPlan)
WEFT_VIEW_GPU(BackwardCrop, BackwardCropPlan)
#undef WEFT_VIEW_GPU

}  // namespace

WEFT_GPU_KERNEL_EXPORT(TileGpu, TileImpl)
WEFT_GPU_KERNEL_EXPORT(RepeatGpu, RepeatImpl)
WEFT_GPU_KERNEL_EXPORT(ReverseGpu, ReverseImpl)
WEFT_GPU_KERNEL_EXPORT(SwapAxisGpu, SwapAxisImpl)
WEFT_GPU_KERNEL_EXPORT(DepthToSpaceGpu, DepthToSpaceImpl)
WEFT_GPU_KERNEL_EXPORT(SpaceToDepthGpu, SpaceToDepthImpl)
WEFT_GPU_KERNEL_EXPORT(DiagGpu, DiagImpl)
WEFT_GPU_KERNEL_EXPORT(BackwardDiagGpu, BackwardDiagImpl)
WEFT_GPU_KERNEL_EXPORT(SliceLikeGpu, SliceLikeImpl)
WEFT_GPU_KERNEL_EXPORT(BackwardSliceLikeGpu, BackwardSliceLikeImpl)
WEFT_GPU_KERNEL_EXPORT(CropGpu, CropImpl)
WEFT_GPU_KERNEL_EXPORT(SplitV2Gpu, SplitV2Impl)
WEFT_GPU_KERNEL_EXPORT(BackwardTileGpu, BackwardTileImpl)
WEFT_GPU_KERNEL_EXPORT(BackwardRepeatGpu, BackwardRepeatImpl)
WEFT_GPU_KERNEL_EXPORT(BackwardCropGpu, BackwardCropImpl)

}  // namespace cuda
}  // namespace weft
