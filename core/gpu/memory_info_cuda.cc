// MemoryInfo over the CUDA runtime.
#include <cuda_runtime.h>

#include "core/base/error.h"
#include "core/gpu/device_api.h"
#include "core/gpu/memory_info.h"

namespace weft {
namespace gpu {

void MemoryInfo(int dev, uint64_t* free_bytes, uint64_t* total_bytes) {
  CheckDevice(Context::GPU(dev));
  SetDevice(dev);
  size_t f = 0, t = 0;
  const cudaError_t e = cudaMemGetInfo(&f, &t);
  if (e != cudaSuccess) {
    cudaGetLastError();
    WEFT_THROW(kInternal) << "gpu_memory_info(" << dev << "): cudaMemGetInfo failed: " << cudaGetErrorString(e);
  }
  *free_bytes = f;
  *total_bytes = t;
}

}  // namespace gpu
}  // namespace weft
