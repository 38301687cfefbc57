// Fuzz target: the .params loader (weft_ndarray_load_from_buffer, MXNet 1.x
// format) through the C ABI. Beyond "no crash, no sanitizer report": a file
// that loads saves again, the saved bytes load to the same names and count,
// and saving those gives the same bytes (the round trip of issue 22).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_check.h"

namespace {

struct Loaded {
  std::vector<weft_ndarray*> arrays;
  std::vector<std::string> keys;
  bool has_keys = false;
  ~Loaded() {
    for (weft_ndarray* a : arrays) weft_ndarray_free(a);
  }
};

bool Load(const void* data, size_t size, Loaded* out) {
  int n = 0, num_keys = 0;
  weft_ndarray** arrays = nullptr;
  const char** keys = nullptr;
  if (FuzzFailed(weft_ndarray_load_from_buffer(data, size, &n, &arrays, &num_keys, &keys))) return false;
  FUZZ_CHECK(n >= 0 && (keys == nullptr || num_keys == n), "%d arrays, %d keys", n, num_keys);
  out->arrays.assign(arrays, arrays + n);
  out->has_keys = keys != nullptr;
  if (keys)
    for (int i = 0; i < num_keys; ++i) out->keys.emplace_back(keys[i]);
  return true;
}

// Every array that loads saves (a none array as MXNet 1.9.1 writes it).
void Save(const Loaded& l, std::string* out) {
  std::vector<const char*> keys;
  for (const std::string& k : l.keys) keys.push_back(k.c_str());
  const char* buf = nullptr;
  size_t size = 0;
  int rc = weft_ndarray_save_to_buffer(static_cast<int>(l.arrays.size()), l.arrays.data(),
                                       l.has_keys ? keys.data() : nullptr, &buf, &size);
  FUZZ_CHECK(rc == 0, "arrays that loaded do not save: %s", weft_last_error());
  out->assign(buf, size);
}

void RoundTrip(const uint8_t* data, size_t size) {
  Loaded first;
  if (!Load(data, size, &first)) return;
  std::string saved;
  Save(first, &saved);
  Loaded again;
  FUZZ_CHECK(Load(saved.data(), saved.size(), &again), "a saved file does not load: %s", weft_last_error());
  FUZZ_CHECK(again.arrays.size() == first.arrays.size() && again.keys == first.keys &&
                 again.has_keys == first.has_keys,
             "reload gives %zu arrays (%zu keys), saved %zu (%zu keys)", again.arrays.size(), again.keys.size(),
             first.arrays.size(), first.keys.size());
  std::string resaved;
  Save(again, &resaved);
  FUZZ_CHECK(resaved == saved, "saving the reloaded arrays gives other bytes (%zu vs %zu)", resaved.size(),
             saved.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  RoundTrip(data, size);
  // Freed arrays are deleted by the engine; waiting here makes each input's
  // mallocs and frees balance, so libFuzzer's leak check (run after any input
  // whose counts differ) stays for real leaks instead of every input.
  weft_wait_all();
  return 0;
}
