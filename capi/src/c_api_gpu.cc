// C ABI: GPU device queries (c_api.h "GPU devices").
#include "capi/src/c_api_common.h"
#include "core/gpu/device_api.h"

int weft_gpu_device_count(int* out, const char** backend) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = weft::gpu::DeviceCount();
  if (backend != nullptr) *backend = weft::gpu::BackendName();
  WEFT_API_END();
}
