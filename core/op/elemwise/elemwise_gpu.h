// The GPU kernels of the elementwise family (binary.cu, unary.cu, misc.cu),
// attached by the declarations' tables (Note [GPU kernels] in
// core/opdef/op_def.h). The table-driven families get a kernel per table row from
// a factory taking the row's kind; the op name is for error messages.
#pragma once
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

FCompute UnaryGpu(elemwise_cpu::UnaryKind kind, const char* name);
FCompute BinarySameShapeGpu(elemwise_cpu::BinaryKind kind, const char* name);
FCompute BinaryBroadcastGpu(elemwise_cpu::BinaryKind kind, const char* name);
FCompute BinaryScalarGpu(elemwise_cpu::BinaryKind kind, bool scalar_on_left, const char* name);
// The plain copies: _backward_Cast, BlockGrad, make_loss, MakeLoss, _copyto.
FCompute CopyGpu(const char* name);
WEFT_GPU_KERNEL_DECL(CastGpu);
WEFT_GPU_KERNEL_DECL(ClipGpu);
WEFT_GPU_KERNEL_DECL(WhereGpu);
WEFT_GPU_KERNEL_DECL(AddNGpu);

}  // namespace cuda
}  // namespace weft
