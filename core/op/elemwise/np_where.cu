// GPU kernels of the NumPy where and boolean_mask_assign_scalar (np_where.cc): one thread per output element
// over the plan the CPU kernel builds, running its element rule (np_where_rules.h).
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

void NpWhereKernelImpl(const OpContext& ctx, const char* op, tensor::WhereForm form, const Params& p,
                       const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                       const std::vector<TensorView>& out) {
  using tensor::WhereForm;
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const Shape* t1 = in.size() > 1 ? &in[1].shape : nullptr;
  const Shape* t2 = in.size() > 2 ? &in[2].shape : nullptr;
  const tensor::WherePlan plan = tensor::MakeWherePlan(op, in[0].shape, t1, t2, out[0].shape);
  const OpReq r = req[0];
  const bool one_scalar = form == WhereForm::kLeftScalar || form == WhereForm::kRightScalar;
  const double scalar = one_scalar ? p.GetFloat("scalar") : 0.0;
  const double sxv = form == WhereForm::kScalars ? p.GetFloat("x") : 0.0;
  const double syv = form == WhereForm::kScalars ? p.GetFloat("y") : 0.0;
  WEFT_GPU_ALL_SWITCH(out[0].dtype, op, T, {
    T* o = static_cast<T*>(out[0].data);
    tensor::WhereOperands<T> w;
    w.form = form;
    w.cond = in[0].data;
    w.cond_dtype = static_cast<int>(in[0].dtype);
    w.x = in.size() > 1 ? static_cast<const T*>(in[1].data) : nullptr;
    w.y = in.size() > 2 ? static_cast<const T*>(in[2].data) : nullptr;
    w.scalar = tensor::ScalarAsDType<T>(scalar);
    w.sx = tensor::ScalarAsDType<T>(sxv);
    w.sy = tensor::ScalarAsDType<T>(syv);
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, tensor::WhereAt(plan, w, i)); });
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
    Launch(ctx, out[0].Size(),
           [=] WEFT_HD(int64_t i) { nnm::Put(o, i, r, tensor::MaskAssignAt(plan, m, mt, d, v, i)); });
  });
}

#define WEFT_NP_WHERE_GPU(fn, name, form)                                                                 \
  void fn(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,                       \
          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {                            \
    NpWhereKernelImpl(ctx, name, form, p, in, req, out);                                                  \
  }
WEFT_NP_WHERE_GPU(NpWhereKernel, "_npi_where", tensor::WhereForm::kTensors)
WEFT_NP_WHERE_GPU(NpWhereLScalarKernel, "_npi_where_lscalar", tensor::WhereForm::kLeftScalar)
WEFT_NP_WHERE_GPU(NpWhereRScalarKernel, "_npi_where_rscalar", tensor::WhereForm::kRightScalar)
WEFT_NP_WHERE_GPU(NpWhereScalar2Kernel, "_npi_where_scalar2", tensor::WhereForm::kScalars)
#undef WEFT_NP_WHERE_GPU

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpWhereGpu, NpWhereKernel)
WEFT_GPU_KERNEL_EXPORT(NpWhereLScalarGpu, NpWhereLScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpWhereRScalarGpu, NpWhereRScalarKernel)
WEFT_GPU_KERNEL_EXPORT(NpWhereScalar2Gpu, NpWhereScalar2Kernel)
WEFT_GPU_KERNEL_EXPORT(NpBooleanMaskAssignScalarGpu, NpMaskAssignKernel)

}  // namespace cuda
}  // namespace weft
