// Save/load part of the C ABI (MXNet 1.x .params format, core/ndarray/ndarray_io).
#include "capi/src/c_api_common.h"
#include "core/ndarray/ndarray_io.h"

using namespace weft;  // NOLINT: C ABI implementation file

namespace {
void Collect(int n, weft_ndarray* const* arrays, const char* const* keys, std::vector<NDArray>* arrs,
             std::vector<std::string>* names) {
  WEFT_CHECK(n >= 0, kInvalidArgument) << "save: negative array count " << n;
  WEFT_CHECK(n == 0 || arrays != nullptr, kInvalidArgument) << "save: arrays is NULL";
  for (int i = 0; i < n; ++i) {
    WEFT_CHECK(arrays[i] != nullptr, kInvalidArgument) << "save: array " << i << " is NULL";
    arrs->push_back(arrays[i]->arr);
    if (keys) {
      WEFT_CHECK(keys[i] != nullptr, kInvalidArgument) << "save: key " << i << " is NULL";
      names->emplace_back(keys[i]);
    }
  }
}
void Publish(std::vector<NDArray>* arrs, std::vector<std::string>* names, int* n, weft_ndarray*** arrays,
             int* num_keys, const char*** keys) {
  auto& s = capi::Scratch();
  s.handles.clear();
  for (auto& a : *arrs) s.handles.push_back(capi::NewHandle(std::move(a)));
  s.strings = std::move(*names);
  s.cstrs.clear();
  for (const auto& k : s.strings) s.cstrs.push_back(k.c_str());
  *n = static_cast<int>(s.handles.size());
  *arrays = s.handles.data();
  *num_keys = static_cast<int>(s.cstrs.size());
  *keys = s.cstrs.empty() ? nullptr : s.cstrs.data();
}
}  // namespace

extern "C" {

int weft_ndarray_save(const char* fname, int n, weft_ndarray* const* arrays, const char* const* keys) {
  return weft_ndarray_save_ex(fname, n, arrays, keys, 0);
}

int weft_ndarray_save_to_buffer(int n, weft_ndarray* const* arrays, const char* const* keys, const char** buf,
                                size_t* size) {
  return weft_ndarray_save_to_buffer_ex(n, arrays, keys, 0, buf, size);
}

// Note [V3 records in NumPy-shape mode] (core/ndarray/ndarray_io.cc): the
// bindings own the np-shape flag and pass it here.
int weft_ndarray_save_ex(const char* fname, int n, weft_ndarray* const* arrays, const char* const* keys,
                         int np_shape) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(fname);
  std::vector<NDArray> arrs;
  std::vector<std::string> names;
  Collect(n, arrays, keys, &arrs, &names);
  SaveNDArraysToFile(fname, arrs, names, np_shape != 0);
  WEFT_API_END();
}

int weft_ndarray_save_to_buffer_ex(int n, weft_ndarray* const* arrays, const char* const* keys, int np_shape,
                                   const char** buf, size_t* size) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(buf);
  WEFT_CHECK_ARG(size);
  std::vector<NDArray> arrs;
  std::vector<std::string> names;
  Collect(n, arrays, keys, &arrs, &names);
  auto& s = capi::Scratch();
  s.str.clear();
  SaveNDArrays(arrs, names, &s.str, np_shape != 0);
  *buf = s.str.data();
  *size = s.str.size();
  WEFT_API_END();
}

int weft_ndarray_load(const char* fname, int* n, weft_ndarray*** arrays, int* num_keys, const char*** keys) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(fname);
  WEFT_CHECK_ARG(n);
  WEFT_CHECK_ARG(arrays);
  WEFT_CHECK_ARG(num_keys);
  WEFT_CHECK_ARG(keys);
  std::vector<NDArray> arrs;
  std::vector<std::string> names;
  LoadNDArraysFromFile(fname, &arrs, &names);
  Publish(&arrs, &names, n, arrays, num_keys, keys);
  WEFT_API_END();
}

int weft_ndarray_load_from_buffer(const void* buf, size_t size, int* n, weft_ndarray*** arrays, int* num_keys,
                                  const char*** keys) {
  WEFT_API_BEGIN();
  WEFT_CHECK(buf != nullptr || size == 0, kInvalidArgument) << "load_from_buffer: buf is NULL";
  WEFT_CHECK_ARG(n);
  WEFT_CHECK_ARG(arrays);
  WEFT_CHECK_ARG(num_keys);
  WEFT_CHECK_ARG(keys);
  std::vector<NDArray> arrs;
  std::vector<std::string> names;
  LoadNDArrays(static_cast<const char*>(buf), size, "<buffer>", &arrs, &names);
  Publish(&arrs, &names, n, arrays, num_keys, keys);
  WEFT_API_END();
}

}  // extern "C"
