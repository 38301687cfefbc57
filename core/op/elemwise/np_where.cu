// GPU kernels of the NumPy where and boolean_mask_assign_scalar (np_where.cc): one thread per output element
// over the plan the CPU kernel builds (np_where_rules.h), selecting as it does.
// The names are the file's own: a CUDA unity build compiles the family's .cu
// files as one unit.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/req_hd.h"
#include "core/op/elemwise/np_compare_rules.h"
#include "core/op/elemwise/np_where_gpu.h"
#include "core/op/elemwise/np_where_rules.h"

namespace weft {
namespace cuda {
namespace {

// 0: both tensors, 1: where(c, scalar, x), 2: where(c, y, scalar), 3: two scalars.
void NpWhereKernelImpl(const OpContext& ctx, const char* op, int form, const Params& p,
                       const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                       const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape* t1 = in.size() > 1 ? &in[1].shape : nullptr;
  const Shape* t2 = in.size() > 2 ? &in[2].shape : nullptr;
  const tensor::WherePlan plan = tensor::MakeWherePlan(op, in[0].shape, t1, t2, out[0].shape);
  const void* c = in[0].data;
  const int ct = static_cast<int>(in[0].dtype);
  const OpReq r = req[0];
  const double scalar = form == 1 || form == 2 ? p.GetFloat("scalar") : 0.0;
  const double sxv = form == 3 ? p.GetFloat("x") : 0.0;
  const double syv = form == 3 ? p.GetFloat("y") : 0.0;
  WEFT_GPU_ALL_SWITCH(out[0].dtype, op, T, {
    T* o = static_cast<T*>(out[0].data);
    const T* a = in.size() > 1 ? static_cast<const T*>(in[1].data) : nullptr;
    const T* b = in.size() > 2 ? static_cast<const T*>(in[2].data) : nullptr;
    const T s = tensor::ScalarAsDType<T>(scalar);
    const T sx = tensor::ScalarAsDType<T>(sxv);
    const T sy = tensor::ScalarAsDType<T>(syv);
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      int64_t co, xo, yo;
      tensor::WhereOffsets(plan, i, &co, &xo, &yo);
      const bool pick = tensor::WhereCondAt(c, ct, co);
      T v;
      if (form == 0) {
        v = pick ? a[xo] : b[yo];
      } else if (form == 1) {
        v = pick ? s : a[xo];
      } else if (form == 2) {
        v = pick ? a[xo] : s;
      } else {
        v = pick ? sx : sy;
      }
      nnm::Put(o, i, r, v);
    });
  });
}

void NpMaskAssignKernel(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const char* op = "_npi_boolean_mask_assign_scalar";
  const tensor::WherePlan plan = tensor::MakeMaskAssignPlan(op, in[0].shape, in[1].shape, p.GetInt("start_axis"));
  const void* m = in[1].data;
  const int mt = static_cast<int>(in[1].dtype);
  const OpReq r = req[0];
  const double value = p.GetFloat("value");
  WEFT_GPU_ALL_SWITCH(out[0].dtype, op, T, {
    const T* d = static_cast<const T*>(in[0].data);
    T* o = static_cast<T*>(out[0].data);
    const T v = tensor::ScalarAsDType<T>(value);
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      int64_t co, xo, yo;
      tensor::WhereOffsets(plan, i, &co, &xo, &yo);
      nnm::Put(o, i, r, tensor::WhereCondAt(m, mt, co) ? v : d[xo]);
    });
  });
}

#define WEFT_NP_WHERE_GPU(fn, name, form)                                                                 \
  void fn(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,                       \
          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                            \
    NpWhereKernelImpl(ctx, name, form, p, in, req, out);                                                  \
  }
WEFT_NP_WHERE_GPU(NpWhereKernel, "_npi_where", 0)
WEFT_NP_WHERE_GPU(NpWhereLScalarKernel, "_npi_where_lscalar", 1)
WEFT_NP_WHERE_GPU(NpWhereRScalarKernel, "_npi_where_rscalar", 2)
WEFT_NP_WHERE_GPU(NpWhereScalar2Kernel, "_npi_where_scalar2", 3)
#undef WEFT_NP_WHERE_GPU

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpWhereGpu, NpWhereKernel)
WEFT_GPU_KERNEL_EXPORT(NpWhereLScalarGpu, NpWhereLScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpWhereRScalarGpu, NpWhereRScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpWhereScalar2Gpu, NpWhereScalar2Kernel)
WEFT_GPU_KERNEL_EXPORT(NpBooleanMaskAssignScalarGpu, NpMaskAssignKernel)

}  // namespace cuda
}  // namespace weft
