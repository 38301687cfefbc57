// Library-level C ABI: errors, versions, engine waits, RNG seed, storage stats.
#include "capi/src/c_api_common.h"
#include "core/engine/engine.h"
#include "core/op/common/weight_cache.h"
#include "core/op/random_state.h"
#include "core/storage/storage.h"

#ifndef WEFT_VERSION_STRING
#define WEFT_VERSION_STRING "0.0.0"
#endif

namespace weft {
namespace capi {
namespace {
thread_local std::string t_last_error;
}
void SetLastError(const std::string& msg) { t_last_error = msg; }
const std::string& LastError() { return t_last_error; }
ThreadScratch& Scratch() {
  thread_local ThreadScratch s;
  return s;
}
}  // namespace capi
}  // namespace weft

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

const char* weft_last_error(void) { return capi::LastError().c_str(); }

int weft_abi_version(void) { return WEFT_ABI_VERSION; }
const char* weft_version(void) { return WEFT_VERSION_STRING; }

int weft_wait_all(void) {
  WEFT_API_BEGIN();
  Engine::Get()->WaitForAll();
  WEFT_API_END();
}

int weft_shutdown(void) {
  WEFT_API_BEGIN();
  Engine::ShutdownProcessEngine();
  WEFT_API_END();
}

int weft_random_seed(uint64_t seed) {
  WEFT_API_BEGIN();
  RandomState::SeedAll(seed);
  WEFT_API_END();
}

int weft_storage_stats_get(weft_dev_type dev_type, int dev_id, weft_storage_stats* out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  StorageStats s = Storage::Stats(Context::Make(dev_type, dev_id));
  out->bytes_in_use = s.bytes_in_use;
  out->peak_bytes_in_use = s.peak_bytes_in_use;
  out->bytes_pooled = s.bytes_pooled;
  out->num_allocs = s.num_allocs;
  out->num_pool_hits = s.num_pool_hits;
  WEFT_API_END();
}

int weft_weight_cache_stats(int64_t* entries, int64_t* bytes, int64_t* hits) {
  WEFT_API_BEGIN();
  if (entries != nullptr) *entries = static_cast<int64_t>(weight_cache::NumEntries());
  if (bytes != nullptr) *bytes = static_cast<int64_t>(weight_cache::BytesHeld());
  if (hits != nullptr) *hits = static_cast<int64_t>(weight_cache::Hits());
  WEFT_API_END();
}

int weft_storage_release_all(weft_dev_type dev_type, int dev_id) {
  WEFT_API_BEGIN();
  Storage::ReleaseAll(Context::Make(dev_type, dev_id));
  WEFT_API_END();
}

}  // extern "C"
