// GPU kernels of the detection ops: the drivers of box_drivers.h,
// multibox_drivers.h and proposal_drivers.h over Launch (float32/float64;
// float16 throws a DTypeError naming the GPU). box_nms runs
// one index per batch (Note [GPU kernel style]: the sort and the greedy
// suppression loop inside it).
#include "core/op/detect/detect_gpu.h"

#include "core/op/common/gpu_loop.h"
// The drivers are named only inside WEFT_DETECT_KERNELS' expansion, which
// include-what-you-use charges to detect_kernels.h: hence the keep pragmas.
#include "core/op/detect/box_drivers.h"  // IWYU pragma: keep
#include "core/op/detect/multibox_drivers.h"  // IWYU pragma: keep
#include "core/op/detect/proposal_drivers.h"  // IWYU pragma: keep

namespace weft {
namespace cuda {
namespace {

using L = GpuLoop;  // common/gpu_loop.h

}  // namespace

using namespace ::weft::detect;  // NOLINT(build/namespaces): the drivers of the *_drivers.h headers

#define WEFT_DETECT_GPU_DEF(name, ...) \
  WEFT_GPU_KERNEL_DECL(name##Gpu) { __VA_ARGS__(ctx, p, in, req, out); }
WEFT_DETECT_KERNELS(WEFT_DETECT_GPU_DEF)
#undef WEFT_DETECT_GPU_DEF

}  // namespace cuda
}  // namespace weft
