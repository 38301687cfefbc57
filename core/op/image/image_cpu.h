// CPU entry of the image operators (kernels in image_kernels.h, run over
// ParallelFor by image_cpu.cc).
#pragma once
#include <vector>

#include "core/op/image/image_kernels.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace image {

// An FCompute running image op `kind` on the CPU.
FCompute ImageCpu(ImageOp kind);

}  // namespace image
}  // namespace weft
