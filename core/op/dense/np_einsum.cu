// GPU kernels of _npi_einsum and its backward op (np_einsum.cc): one index
// per target element, the gather of Note [Einsum as one gather per output
// element] (np_einsum_rules.h) with the plan captured by value. Every dtype,
// as the CPU kernels; 16-bit floats accumulate in float.
#include <string>
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/dense/np_einsum_plan.h"
#include "core/op/dense/np_einsum_gpu.h"

namespace weft {
namespace cuda {
// Named: the CUDA build compiles a family's .cu files as one translation unit.
namespace np_einsum_gpu {
namespace {

using tensor::EinsumGather;

template <typename T>
void GatherGPU(const OpContext& ctx, const EinsumGather& g, const std::vector<const TensorView*>& ins, OpReq req,
               const TensorView& out) {
  tensor::EinsumInputs<T> in;
  for (int k = 0; k < g.nin; ++k) in.p[k] = ins[static_cast<size_t>(k)]->ptr<T>();
  T* o = out.ptr<T>();
  Launch(ctx, out.Size(), [=] WEFT_HD(int64_t i) { Assign(o, i, req, tensor::EinsumGatherAt<T>(g, in, i)); });
}

void RunGatherGPU(const OpContext& ctx, const char* op, const EinsumGather& g,
                  const std::vector<const TensorView*>& ins, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull || out.Size() == 0) return;
  WEFT_GPU_ALL_SWITCH(out.dtype, op, T, GatherGPU<T>(ctx, g, ins, req, out);)
}

std::vector<Shape> ShapesFrom(const std::vector<TensorView>& v, size_t from) {
  std::vector<Shape> r;
  for (size_t i = from; i < v.size(); ++i) r.push_back(v[i].shape);
  return r;
}

tensor::EinsumSpec Spec(const Params& p, const std::vector<Shape>& ins) {
  return tensor::ParseEinsum(p.op()->name, p.GetString("subscripts"), ins);
}

void Einsum(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
            const std::vector<TensorView>& out) {
  const std::vector<Shape> shapes = ShapesFrom(in, 0);
  std::vector<const TensorView*> ins;
  for (const TensorView& t : in) ins.push_back(&t);
  RunGatherGPU(ctx, p.op()->name.c_str(), tensor::EinsumForwardGather(Spec(p, shapes), shapes), ins, req[0], out[0]);
}

void EinsumBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const std::vector<Shape> shapes = ShapesFrom(in, 1);
  const tensor::EinsumSpec spec = Spec(p, shapes);
  for (size_t i = 0; i < out.size(); ++i) {
    std::vector<const TensorView*> ins = {&in[0]};
    for (size_t j = 0; j < shapes.size(); ++j)
      if (j != i) ins.push_back(&in[j + 1]);
    RunGatherGPU(ctx, p.op()->name.c_str(), tensor::EinsumGradGather(spec, shapes, i), ins, req[i], out[i]);
  }
}

}  // namespace
}  // namespace np_einsum_gpu

WEFT_GPU_KERNEL_EXPORT(NpEinsumGpu, np_einsum_gpu::Einsum)                  // _npi_einsum
WEFT_GPU_KERNEL_EXPORT(BackwardNpEinsumGpu, np_einsum_gpu::EinsumBackward)  // _backward_npi_einsum

}  // namespace cuda
}  // namespace weft
