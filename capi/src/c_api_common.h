// Shared by the C ABI translation units: handle layouts, the thread-local
// error, and the boundary macros that turn every exception into a status code.
#pragma once
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "core/base/context.h"
#include "core/base/dtype.h"
#include "core/base/error.h"
#include "core/engine/profiler.h"
#include "core/graph/symbol.h"
#include "core/ndarray/ndarray.h"
#include "core/opdef/op_def.h"
#include "weft/c_api.h"

// The ABI passes these enums where it passed int before (same values, generated
// from core/base/dtype.h and context.h by scripts/gen_c_api_enums.py), so they
// must stay int-sized. Spot checks of the codes here; every entry is compared
// by tests/python/test_c_api_enums.py.
static_assert(sizeof(weft_dtype) == sizeof(int) && sizeof(weft_dev_type) == sizeof(int),
              "the C ABI's enums must be int-sized");
static_assert(WEFT_DTYPE_UNKNOWN == static_cast<int>(weft::DType::kUnknown) &&
                  WEFT_DTYPE_FLOAT32 == static_cast<int>(weft::DType::kFloat32) &&
                  WEFT_DTYPE_BFLOAT16 == static_cast<int>(weft::DType::kBFloat16) &&
                  WEFT_DEV_TYPE_CPU == static_cast<int>(weft::DevType::kCPU) &&
                  WEFT_DEV_TYPE_GPU == static_cast<int>(weft::DevType::kGPU),
              "c_api.h's enums are stale: run scripts/gen_c_api_enums.py");

struct weft_ndarray {
  weft::NDArray arr;
  std::vector<int64_t> shape_cache;  // backs weft_ndarray_shape's pointer
};

struct weft_op {
  const weft::OpDef* def;
};

struct weft_symbol {
  weft::Symbol sym;
};

namespace weft {
namespace capi {

void SetLastError(const std::string& msg);
const std::string& LastError();
// Thread-local scratch returned to callers ("valid until the next call on this thread").
struct ThreadScratch {
  std::string str;
  std::vector<std::string> strings;
  std::vector<const char*> cstrs;
  std::vector<weft_ndarray*> handles;
};
ThreadScratch& Scratch();

inline weft_ndarray* NewHandle(NDArray a) {
  auto* h = new weft_ndarray();
  h->arr = std::move(a);
  return h;
}

}  // namespace capi
}  // namespace weft

// Every exported function body is wrapped: no exception crosses the C boundary.
// While the profiler runs with profile_api, each call is one MXNET_C_API event.
#define WEFT_API_BEGIN()                         \
  ::weft::profiler::ApiScope weft_api_scope_(__func__); \
  try {
// The profiler's own calls (a Task's start and stop must not cut API events).
#define WEFT_API_BEGIN_UNPROFILED() try {
#define WEFT_API_END()                                                   \
  }                                                                      \
  catch (const ::weft::Error& e) {                                       \
    ::weft::capi::SetLastError(e.what());                                \
    return static_cast<int>(e.status());                                 \
  }                                                                      \
  catch (const std::bad_alloc&) {                                        \
    ::weft::capi::SetLastError("out of memory");                         \
    return WEFT_ERR_OUT_OF_MEMORY;                                       \
  }                                                                      \
  catch (const std::exception& e) {                                      \
    ::weft::capi::SetLastError(std::string("internal error: ") + e.what()); \
    return WEFT_ERR_INTERNAL;                                            \
  }                                                                      \
  catch (...) {                                                          \
    ::weft::capi::SetLastError("internal error: unknown exception");      \
    return WEFT_ERR_INTERNAL;                                            \
  }                                                                      \
  return WEFT_OK;

#define WEFT_CHECK_ARG(ptr) \
  WEFT_CHECK((ptr) != nullptr, kInvalidArgument) << __func__ << ": argument '" #ptr "' is NULL"
