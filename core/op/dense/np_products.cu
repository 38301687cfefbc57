// GPU kernels of _np_dot, _npi_matmul, _npi_tensordot, _npi_tensordot_int_axes
// and their backward ops (np_products.cc):
// the CPU's list of products (Note [NumPy products as GEMM lists],
// np_products_rules.cc), each one DenseGemm on the op's stream, so products
// accumulating into one block run in order. float32/float64 and, unlike the
// CPU kernels, float16/bfloat16 (computed in float by gpu::Gemm).
#include <string>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/common/nn_gpu.cuh"
#include "core/op/dense/np_products_rules.h"
#include "core/op/dense/np_products_gpu.h"

namespace weft {
namespace cuda {
namespace {

using tensor::NpGemmList;
using Planner = tensor::NpProductPlanner;

template <typename T>
void RunList(const OpContext& ctx, const NpGemmList& g, const std::vector<TensorView>& in, OpReq req,
             const TensorView& c) {
  T* cp = c.ptr<T>();
  if (g.off_c.empty()) {
    if (req != OpReq::kAddTo && c.Size() > 0) Launch(ctx, c.Size(), [=] WEFT_HD(int64_t i) { cp[i] = T(0); });
    return;
  }
  const T* ap = in[static_cast<size_t>(g.input_a)].ptr<T>();
  const T* bp = in[static_cast<size_t>(g.input_b)].ptr<T>();
  for (size_t i = 0; i < g.off_c.size(); ++i) {
    const T beta = req == OpReq::kAddTo || g.accumulate[i] ? T(1) : T(0);
    DenseGemm(ctx, g.trans_a, g.trans_b, g.m, g.n, g.k, ap + g.off_a[i], g.lda, bp + g.off_b[i], g.ldb, beta,
              cp + g.off_c[i], g.ldc);
  }
}

void RunListGPU(const OpContext& ctx, const char* op, const NpGemmList& g, const std::vector<TensorView>& in,
                OpReq req, const TensorView& c) {
  if (req == OpReq::kNull) return;
  switch (c.dtype) {
    case DType::kFloat32: return RunList<float>(ctx, g, in, req, c);
    case DType::kFloat64: return RunList<double>(ctx, g, in, req, c);
    case DType::kFloat16: return RunList<gpu_half>(ctx, g, in, req, c);
    case DType::kBFloat16: return RunList<gpu_bf16>(ctx, g, in, req, c);
    default: UnsupportedDType(op, c.dtype);
  }
}

void Forward(Planner plan, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Shape shape;
  const NpGemmList g = plan(p, in[0].shape, in[1].shape, &shape);
  if (g.as_einsum) return tensor::RunTensordotAsEinsum(g, false, true, ctx, in, req, out);
  RunListGPU(ctx, p.op()->name.c_str(), g, in, req[0], out[0]);
}

void Backward(Planner plan, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Shape shape;
  NpGemmList grads[2];
  tensor::NpProductBackward(plan(p, in[1].shape, in[2].shape, &shape), grads);
  if (grads[0].as_einsum) return tensor::RunTensordotAsEinsum(grads[0], true, true, ctx, in, req, out);
  for (size_t i = 0; i < 2; ++i) RunListGPU(ctx, p.op()->name.c_str(), grads[i], in, req[i], out[i]);
}

void NpDot(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  Forward(tensor::NpDotPlan, ctx, p, in, req, out);
}
void NpDotBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Backward(tensor::NpDotPlan, ctx, p, in, req, out);
}
void NpMatmul(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Forward(tensor::NpMatmulPlan, ctx, p, in, req, out);
}
void NpMatmulBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Backward(tensor::NpMatmulPlan, ctx, p, in, req, out);
}

void NpTensordot(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Forward(tensor::NpTensordotPlan, ctx, p, in, req, out);
}
void NpTensordotBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Backward(tensor::NpTensordotPlan, ctx, p, in, req, out);
}
void NpTensordotInt(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Forward(tensor::NpTensordotIntPlan, ctx, p, in, req, out);
}
void NpTensordotIntBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  Backward(tensor::NpTensordotIntPlan, ctx, p, in, req, out);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(NpDotGpu, NpDot)                         // _np_dot
WEFT_GPU_KERNEL_EXPORT(BackwardNpDotGpu, NpDotBackward)         // _backward_np_dot
WEFT_GPU_KERNEL_EXPORT(NpMatmulGpu, NpMatmul)                   // _npi_matmul
WEFT_GPU_KERNEL_EXPORT(BackwardNpMatmulGpu, NpMatmulBackward)   // _backward_npi_matmul
WEFT_GPU_KERNEL_EXPORT(NpTensordotGpu, NpTensordot)             // _npi_tensordot
WEFT_GPU_KERNEL_EXPORT(BackwardNpTensordotGpu, NpTensordotBackward)  // _backward_npi_tensordot
WEFT_GPU_KERNEL_EXPORT(NpTensordotIntAxesGpu, NpTensordotInt)   // _npi_tensordot_int_axes
WEFT_GPU_KERNEL_EXPORT(BackwardNpTensordotIntAxesGpu, NpTensordotIntBackward)  // _backward_npi_tensordot_int_axes

}  // namespace cuda
}  // namespace weft
