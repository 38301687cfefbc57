// The C++ ImageRecordIter's part of the C ABI (core/io/image_record_iter.h).
#include "capi/src/c_api_common.h"
#include "core/io/image_record_iter.h"

using namespace weft;  // NOLINT: C ABI implementation file

struct weft_image_record_iter {
  std::unique_ptr<io::ImageRecordIter> iter;
  std::vector<uint64_t> index;  // backs weft_image_record_iter_next's pointer
};

extern "C" {

int weft_image_record_iter_create(int num_params, const char* const* keys, const char* const* vals,
                                  weft_image_record_iter** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(num_params >= 0 && (num_params == 0 || (keys && vals)), kInvalidArgument)
      << "weft_image_record_iter_create: bad parameter arrays";
  std::vector<std::pair<std::string, std::string>> kv;
  for (int i = 0; i < num_params; ++i) {
    WEFT_CHECK(keys[i] && vals[i], kInvalidArgument) << "weft_image_record_iter_create: parameter " << i << " is NULL";
    kv.emplace_back(keys[i], vals[i]);
  }
  auto h = std::make_unique<weft_image_record_iter>();
  h->iter = std::make_unique<io::ImageRecordIter>(io::ParseImageRecordIterParam(kv));
  *out = h.release();
  WEFT_API_END();
}

void weft_image_record_iter_free(weft_image_record_iter* it) { delete it; }

int weft_image_record_iter_next(weft_image_record_iter* it, int* has_batch, weft_ndarray** data,
                                weft_ndarray** label, int* pad, const uint64_t** index) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(it);
  WEFT_CHECK_ARG(has_batch);
  WEFT_CHECK_ARG(data);
  WEFT_CHECK_ARG(label);
  WEFT_CHECK_ARG(pad);
  WEFT_CHECK_ARG(index);
  *has_batch = 0;
  io::ImageBatch b;
  if (!it->iter->Next(&b)) return WEFT_OK;
  it->index = std::move(b.index);
  *data = capi::NewHandle(std::move(b.data));
  *label = capi::NewHandle(std::move(b.label));
  *pad = b.pad;
  *index = it->index.data();
  *has_batch = 1;
  WEFT_API_END();
}

int weft_image_record_iter_reset(weft_image_record_iter* it) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(it);
  it->iter->Reset();
  WEFT_API_END();
}

int weft_image_record_iter_num_records(const weft_image_record_iter* it, int64_t* n) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(it);
  WEFT_CHECK_ARG(n);
  *n = it->iter->num_records();
  WEFT_API_END();
}

}  // extern "C"
