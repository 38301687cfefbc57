// DLPack part of the C ABI: zero-copy exchange of arrays with NumPy, PyTorch,
// CuPy (core/ndarray/dlpack.h does the work; this file only crosses the boundary).
#include <memory>

#include "capi/src/c_api_common.h"
#include "core/ndarray/dlpack.h"

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

int weft_ndarray_to_dlpack(const weft_ndarray* arr, void** out_managed_tensor) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(arr);
  WEFT_CHECK_ARG(out_managed_tensor);
  *out_managed_tensor = ToDLPack(arr->arr);
  WEFT_API_END();
}

int weft_ndarray_to_dlpack_versioned(const weft_ndarray* arr, void** out_managed_tensor) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(arr);
  WEFT_CHECK_ARG(out_managed_tensor);
  *out_managed_tensor = ToDLPackVersioned(arr->arr);
  WEFT_API_END();
}

int weft_ndarray_from_dlpack(void* managed_tensor, weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(managed_tensor);
  WEFT_CHECK_ARG(out);
  // The handle exists before the array takes the tensor: nothing can fail once
  // it has, so on any error the tensor is still the caller's.
  auto h = std::make_unique<weft_ndarray>();
  h->arr = FromDLPack(static_cast<weft_dl_managed_tensor*>(managed_tensor));
  *out = h.release();
  WEFT_API_END();
}

}  // extern "C"
