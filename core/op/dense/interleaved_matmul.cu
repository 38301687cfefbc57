// GPU kernel of the interleaved attention products and their gradients
// (core/op/dense/interleaved_matmul.cc): the plan's strided batched GEMMs on
// cuBLAS (gpu::GemmStridedBatched), after clearing the outputs it names.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/dense/interleaved_matmul_rules.h"
#include "core/op/dense/interleaved_matmul_gpu.h"

namespace weft {
namespace cuda {
namespace {

template <typename T>
void RunPlan(const OpContext& ctx, const nnm::InterleavedPlan& plan, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  for (int o : plan.zero_first)
    if (req[o] != OpReq::kNull && req[o] != OpReq::kAddTo && out[o].Size() > 0)
      gpu::MemsetAsync(out[o].data, 0, static_cast<size_t>(out[o].Size()) * sizeof(T), StreamOf(ctx));
  for (const nnm::StridedGemm& g : plan.gemms) {
    if (req[g.c] == OpReq::kNull || g.batch == 0 || g.m == 0 || g.n == 0) continue;
    using A = AccT<T>;  // alpha and beta in the product's compute type (float for 16-bit data)
    const A beta = req[g.c] == OpReq::kAddTo ? A(1) : A(0);
    gpu::GemmStridedBatched(DeviceOf(ctx), StreamOf(ctx), g.ta, g.tb, static_cast<int>(g.m), static_cast<int>(g.n),
                            static_cast<int>(g.k), static_cast<A>(g.alpha), in[g.a].ptr<T>() + g.a_off,
                            static_cast<int>(g.lda), g.sa, in[g.b].ptr<T>() + g.b_off, static_cast<int>(g.ldb), g.sb,
                            beta, out[g.c].ptr<T>() + g.c_off, static_cast<int>(g.ldc), g.sc,
                            static_cast<int>(g.batch));
  }
}

void InterleavedMatmul(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  std::vector<Shape> shapes;
  for (const TensorView& v : in) shapes.push_back(v.shape);
  const nnm::InterleavedPlan plan = nnm::InterleavedPlanOf(p, shapes);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, p.op()->name.c_str(), T, { RunPlan<T>(ctx, plan, in, req, out); });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(InterleavedMatmulGpu, InterleavedMatmul)

}  // namespace cuda
}  // namespace weft
