// MemoryInfo of the host emulation: emulated devices allocate host memory, so
// they report the host's (MemAvailable / MemTotal from /proc/meminfo, else sysconf).
#include <unistd.h>

#include <fstream>
#include <string>

#include "core/base/error.h"
#include "core/gpu/device_api.h"
#include "core/gpu/memory_info.h"

namespace weft {
namespace gpu {

void MemoryInfo(int dev, uint64_t* free_bytes, uint64_t* total_bytes) {
  const int n = DeviceCount();
  WEFT_CHECK(n > 0, kInvalidArgument)
      << "gpu_memory_info(" << dev << "): gpu(" << dev
      << ") is not available: this build has no CUDA support (configure with -DWEFT_USE_CUDA=ON); "
         "WEFT_GPU_EMULATE=N runs the GPU code path on the host for testing";
  WEFT_CHECK(dev >= 0 && dev < n, kInvalidArgument)
      << "gpu_memory_info(" << dev << "): gpu(" << dev << ") does not exist: " << n << " emulated GPU device(s)";
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t total = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * page;
  uint64_t avail = static_cast<uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * page;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit) {
    if (key == "MemTotal:") total = kb * 1024;
    if (key == "MemAvailable:") avail = kb * 1024;
  }
  *free_bytes = avail < total ? avail : total;
  *total_bytes = total;
}

}  // namespace gpu
}  // namespace weft
