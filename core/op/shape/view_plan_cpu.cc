#include "core/op/shape/view_plan_cpu.h"

#include <cstring>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {

void RunViewPlan(const tensor::ViewPlan& plan, const TensorView& in, OpReq req, const TensorView& out) {
  WriteWithReq(req, out, [&](const TensorView& o) {
    if (plan.zero_fill) o.ZeroFill();
    StridedCopy(DTypeSize(o.dtype), plan.shape, in.data, plan.src_off, plan.src_stride, o.data, plan.dst_off,
                plan.dst_stride);
  });
}

FCompute ViewPlanCompute(tensor::ViewPlanFn plan) {
  return [plan](const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
    RunViewPlan(plan(p, in[0].shape, out[0].shape), in[0], req[0], out[0]);
  };
}

namespace {

int64_t Offset(int64_t i, const std::vector<int64_t>& shape, const std::vector<int64_t>& stride) {
  int64_t off = 0;
  for (size_t k = shape.size(); k-- > 0;) {
    off += (i % shape[k]) * stride[k];
    i /= shape[k];
  }
  return off;
}

template <typename T>
void SumRows(const tensor::SumPlan& plan, const T* in, OpReq req, T* out, int64_t n) {
  int64_t m = 1;
  for (int64_t d : plan.inner) m *= d;
  ParallelFor(n, m + 1, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      const int64_t base = Offset(o, plan.outer, plan.outer_stride);
      double acc = 0;
      for (int64_t i = 0; i < m; ++i) acc += static_cast<double>(in[base + Offset(i, plan.inner, plan.inner_stride)]);
      StoreReq(req, out + o, static_cast<T>(acc));
    }
  });
}

}  // namespace

void RunSumPlan(const tensor::SumPlan& plan, const TensorView& in, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  switch (out.dtype) {
    case DType::kFloat32: SumRows(plan, in.ptr<float>(), req, out.ptr<float>(), out.Size()); break;
    case DType::kFloat64: SumRows(plan, in.ptr<double>(), req, out.ptr<double>(), out.Size()); break;
    default:
      WEFT_THROW(kDType) << "_backward_tile/_backward_repeat: dtype " << DTypeName(out.dtype)
                         << " is not supported (float32 and float64 are)";
  }
}

}  // namespace tensor_cpu
}  // namespace weft
