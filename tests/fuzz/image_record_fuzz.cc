// Fuzz target: a RecordIO file read by the C++ ImageRecordIter through the C
// ABI (weft_image_record_iter_*; core/io/): the record framing, the IRHeader
// and its labels, and the JPEG/PNG payloads behind them (Note [Image
// decoders]), decoded, resized and cropped as an epoch and a reset run them.
//
// Input: the .rec file itself (seeds: small images packed as im2rec packs
// them, and the bombs of tests/python/image_bombs.py). The budget is 2^14
// pixels (max_image_pixels; Note [Fuzz pixel budget]). Beyond "no crash, no
// sanitizer report": every failure comes with a message, and a batch has the
// promised shape.
//
// Note [Fuzz pixel budget]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// The budget bounds an input's time as well as its memory. An input runs two
// epochs of up to 8 batches of 2, so up to 32 decodes and resizes, on the
// iterator's one decode thread, and a 64 KB input (-max_len) holds 16 small
// records of a blank image as large as the budget allows. At the former 2^22
// (2048x2048, the bomb seeds' size exactly) one 836-byte record of a truncated
// 2048x2048 JPEG took 0.4-0.8 s under ASan on the shared 2-core machine (load
// ~12) and went past libFuzzer's 1 s -timeout twice (docs/FUZZING.md): false
// "slow inputs" that end a chunk. Measured the same way, 16 blank PNG records
// at the budget's size take 1.2-1.8 s at 2^18 (512x512), 0.4-0.5 s at 2^16
// and 0.08-0.11 s at 2^14 (128x128), so 2^14 keeps every input far below 1 s
// on a starved machine. Images still reach 256 times the 8x8 output (the
// resize and crop paths, several JPEG MCU rows), and the 2048x2048 bomb seeds
// now take the refusal path (Note [Image pixel budget] in
// core/io/image_budget.cc), which is what a budget is for.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/fuzz_check.h"

namespace {

// The input as a file: the iterator reads a path.
class TempRec {
 public:
  TempRec(const uint8_t* data, size_t size) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/weft_fuzz_XXXXXX.rec";
    const int fd = mkstemps(&path_[0], 4);
    FUZZ_CHECK(fd >= 0, "mkstemps(%s) failed", path_.c_str());
    size_t done = 0;
    while (done < size) {
      const ssize_t n = write(fd, data + done, size - done);
      FUZZ_CHECK(n > 0, "writing %s failed", path_.c_str());
      done += static_cast<size_t>(n);
    }
    close(fd);
  }
  ~TempRec() { unlink(path_.c_str()); }
  const char* path() const { return path_.c_str(); }

 private:
  std::string path_;
};

// One epoch: up to 8 batches; stops at the first error (which ends the epoch).
void RunEpoch(weft_image_record_iter* it) {
  for (int i = 0; i < 8; ++i) {
    int has = 0, pad = 0;
    weft_ndarray *data = nullptr, *label = nullptr;
    const uint64_t* index = nullptr;
    if (FuzzFailed(weft_image_record_iter_next(it, &has, &data, &label, &pad, &index)) || !has) return;
    int ndim = 0;
    const int64_t* shape = nullptr;
    FUZZ_CHECK(weft_ndarray_shape(data, &ndim, &shape) == 0, "%s", weft_last_error());
    FUZZ_CHECK(ndim == 4 && shape[0] == 2 && shape[1] == 3 && shape[2] == 8 && shape[3] == 8, "a batch of %d dims",
               ndim);
    FUZZ_CHECK(pad >= 0 && pad < 2, "pad %d", pad);
    weft_ndarray_free(data);
    weft_ndarray_free(label);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TempRec rec(data, size);
  const char* keys[] = {"path_imgrec", "data_shape", "batch_size", "resize", "preprocess_threads",
                        "prefetch_buffer", "round_batch", "max_image_pixels"};
  const char* vals[] = {rec.path(), "(3,8,8)", "2", "8", "1", "1", "False", "16384"};
  weft_image_record_iter* it = nullptr;
  if (FuzzFailed(weft_image_record_iter_create(8, keys, vals, &it))) return 0;
  RunEpoch(it);
  if (!FuzzFailed(weft_image_record_iter_reset(it))) RunEpoch(it);
  weft_image_record_iter_free(it);
  return 0;
}
