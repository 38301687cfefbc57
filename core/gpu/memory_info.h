// A GPU's free and total memory (MXNet's mx.context.gpu_memory_info).
#pragma once
#include <cstdint>

namespace weft {
namespace gpu {

// Bytes free and in total on device dev. Throws kInvalidArgument naming
// gpu(dev) when there is no such device (or no GPU support). The host
// emulation reports the host's memory: emulated devices allocate from it.
void MemoryInfo(int dev, uint64_t* free_bytes, uint64_t* total_bytes);

}  // namespace gpu
}  // namespace weft
