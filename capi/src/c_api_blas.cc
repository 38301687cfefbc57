// C ABI: which CPU BLAS the library runs (weft.runtime.blas_info).
#include "capi/src/c_api_common.h"
#include "core/base/cpu_blas.h"

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

int weft_blas_info(const char** name, const char** config, const char** kernel, const char** library,
                   const char** threading, int* threads) {
  WEFT_API_BEGIN();
  cpu_blas::Info info = cpu_blas::GetInfo();
  if (name != nullptr) *name = info.name;
  if (config != nullptr) *config = info.config;
  if (kernel != nullptr) *kernel = info.kernel;
  if (library != nullptr) *library = info.library;
  if (threading != nullptr) *threading = info.threading;
  if (threads != nullptr) *threads = info.threads;
  WEFT_API_END();
}

}  // extern "C"
