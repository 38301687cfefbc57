// C ABI: GPU device queries (c_api.h "GPU devices").
#include "capi/src/c_api_common.h"
#include "core/gpu/device_api.h"
#include "core/gpu/memory_info.h"

int weft_gpu_device_count(int* out, const char** backend) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = weft::gpu::DeviceCount();
  if (backend != nullptr) *backend = weft::gpu::BackendName();
  WEFT_API_END();
}

int weft_gpu_memory_info(int dev_id, uint64_t* free_bytes, uint64_t* total_bytes) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(free_bytes);
  WEFT_CHECK_ARG(total_bytes);
  weft::gpu::MemoryInfo(dev_id, free_bytes, total_bytes);
  WEFT_API_END();
}
