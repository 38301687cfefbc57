// NDArray part of the C ABI: create, inspect, copy, views, waits.
#include <cstring>

#include "capi/src/c_api_common.h"
#include "core/autograd/autograd.h"
#include "core/ndarray/axpy_fusion.h"

using namespace weft;  // NOLINT: C ABI implementation file

namespace {
Shape ShapeFromC(const int64_t* shape, int ndim) {
  WEFT_CHECK(ndim >= 0 && ndim <= 32, kShape) << "ndim " << ndim << " out of range [0, 32]";
  WEFT_CHECK(ndim == 0 || shape != nullptr, kInvalidArgument) << "shape pointer is NULL";
  Shape s;
  for (int i = 0; i < ndim; ++i) {
    WEFT_CHECK(shape[i] >= 0, kShape) << "negative dimension " << shape[i] << " at axis " << i;
    s.push_back(shape[i]);
  }
  return s;
}
const NDArray& Arr(const weft_ndarray* h) {
  WEFT_CHECK(h != nullptr, kInvalidArgument) << "NDArray handle is NULL";
  return h->arr;
}

// Views of arrays on the autograd tape are recorded (Note [Views on the tape]
// in core/autograd/autograd.h).
NDArray ReshapeView(const NDArray& a, const Shape& shape) {
  NDArray v = a.Reshape(shape);
  // Reshape reads a 0 in its shape as "copy this input dim": an empty
  // array's view (no gradient to carry) is left off the tape.
  if (shape.Size() > 0) Autograd::RecordView("Reshape", {{"shape", shape.ToString()}}, a, &v);
  return v;
}

NDArray SliceView(const NDArray& a, int64_t begin, int64_t end) {
  NDArray v = a.Slice(begin, end);
  Autograd::RecordView("slice_axis", {{"axis", "0"}, {"begin", std::to_string(begin)}, {"end", std::to_string(end)}},
                       a, &v);
  return v;
}
}  // namespace

extern "C" {

int weft_ndarray_create(const int64_t* shape, int ndim, weft_dtype dtype, weft_dev_type dev_type, int dev_id,
                        weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  Shape s = ShapeFromC(shape, ndim);
  DType t = DTypeFromFlag(static_cast<int>(dtype));
  *out = capi::NewHandle(NDArray(s, Context::Make(dev_type, dev_id), t));
  WEFT_API_END();
}

void weft_ndarray_free(weft_ndarray* arr) { delete arr; }

int weft_ndarray_shape(const weft_ndarray* arr, int* ndim, const int64_t** shape) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(ndim);
  WEFT_CHECK_ARG(shape);
  auto* h = const_cast<weft_ndarray*>(arr);
  h->shape_cache = Arr(arr).shape().dims();
  *ndim = static_cast<int>(h->shape_cache.size());
  *shape = h->shape_cache.data();
  WEFT_API_END();
}

int weft_ndarray_dtype(const weft_ndarray* arr, weft_dtype* dtype) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(dtype);
  *dtype = static_cast<weft_dtype>(Arr(arr).dtype());
  WEFT_API_END();
}

int weft_ndarray_context(const weft_ndarray* arr, weft_dev_type* dev_type, int* dev_id) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(dev_type);
  WEFT_CHECK_ARG(dev_id);
  Context c = Arr(arr).ctx();
  *dev_type = static_cast<weft_dev_type>(c.dev_type);
  *dev_id = c.dev_id;
  WEFT_API_END();
}

int weft_ndarray_copy_from_host(weft_ndarray* arr, const void* data, size_t nbytes) {
  WEFT_API_BEGIN();
  WEFT_CHECK(data != nullptr || nbytes == 0, kInvalidArgument) << "copy_from_host: data is NULL";
  Arr(arr).SyncCopyFromHost(data, nbytes);
  WEFT_API_END();
}

int weft_ndarray_copy_to_host(const weft_ndarray* arr, void* data, size_t nbytes) {
  WEFT_API_BEGIN();
  WEFT_CHECK(data != nullptr || nbytes == 0, kInvalidArgument) << "copy_to_host: data is NULL";
  Arr(arr).SyncCopyToHost(data, nbytes);
  WEFT_API_END();
}

int weft_ndarray_wait_to_read(const weft_ndarray* arr) {
  WEFT_API_BEGIN();
  Arr(arr).WaitToRead();
  WEFT_API_END();
}

int weft_ndarray_wait_to_write(const weft_ndarray* arr) {
  WEFT_API_BEGIN();
  Arr(arr).WaitToWrite();
  WEFT_API_END();
}

int weft_ndarray_reshape(const weft_ndarray* arr, const int64_t* shape, int ndim, weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = capi::NewHandle(ReshapeView(Arr(arr), ShapeFromC(shape, ndim)));
  WEFT_API_END();
}

int weft_ndarray_slice(const weft_ndarray* arr, int64_t begin, int64_t end, weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = capi::NewHandle(SliceView(Arr(arr), begin, end));
  WEFT_API_END();
}

int weft_ndarray_at(const weft_ndarray* arr, int64_t index, weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  const NDArray& a = Arr(arr);
  NDArray v = a.At(index);
  if (Autograd::IsRecording() && a.ag_node() != nullptr)  // row `index`, then At's shape
    v = ReshapeView(SliceView(a, index, index + 1), v.shape());
  *out = capi::NewHandle(v);
  WEFT_API_END();
}

int weft_ndarray_copy_to_context(const weft_ndarray* arr, weft_dev_type dev_type, int dev_id, weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = capi::NewHandle(Arr(arr).CopyTo(Context::Make(dev_type, dev_id)));
  WEFT_API_END();
}

int weft_ndarray_copy(const weft_ndarray* src, weft_ndarray* dst) {
  WEFT_API_BEGIN();
  NDArray::Copy(Arr(src), Arr(dst));
  WEFT_API_END();
}

int weft_ndarray_clone_handle(const weft_ndarray* arr, weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = capi::NewHandle(Arr(arr));
  WEFT_API_END();
}

int weft_ndarray_shares_memory(const weft_ndarray* a, const weft_ndarray* b, int* out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = Arr(a).SharesChunk(Arr(b)) ? 1 : 0;
  WEFT_API_END();
}

int weft_ndarray_fuse_scaled_update(weft_ndarray* w, weft_ndarray* t, int sign, int* fused) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(w);
  WEFT_CHECK_ARG(t);
  WEFT_CHECK_ARG(fused);
  *fused = 0;
  WEFT_CHECK(sign == 1 || sign == -1, kInvalidArgument) << "fuse_scaled_update: sign must be 1 or -1, got " << sign;
  *fused = axpy_fusion::TryFuse(&w->arr, t->arr, sign, Autograd::IsRecording()) ? 1 : 0;
  WEFT_API_END();
}

}  // extern "C"
