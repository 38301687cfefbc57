// C ABI: the shared check for strings bindings pass in (Note [C strings]).
#include "capi/src/c_api_common.h"
#include "core/base/c_string.h"

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

int weft_check_string(const char* data, size_t size, const char* what) {
  WEFT_API_BEGIN();
  WEFT_CHECK(data != nullptr || size == 0, kInvalidArgument) << "weft_check_string: data is NULL";
  CheckCString(data, size, what);
  WEFT_API_END();
}

}  // extern "C"
