// ImageRecordIter in C++: batches of images from a RecordIO file, decoded and
// augmented by a thread pool of preprocess_threads, handed out as NDArrays.
//
// Note [ImageRecordIter engine pipeline]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An epoch is a list of batches (the records in file order, or shuffled from
// (seed, epoch); cut as MXNet's BatchLoader does, round_batch wrapping the last
// batch to the start and the next epoch beginning after the wrapped records).
// Up to prefetch_buffer batches are in flight: each gets fresh data and label
// NDArrays on the CPU and one task per sample on the pool's queue; a pool
// thread reads its record (pread), decodes, augments and writes the sample
// straight into the batch's arrays. No engine op can touch those arrays yet
// (nothing outside the iterator holds them and nothing was pushed on their
// vars), so writing them from the pool needs no engine op; once Next() hands
// a finished batch out, every use of it is an engine op on its vars, and
// Next() tops the queue up again so decoding runs while the caller computes.
// Each sample's random draws come from SampleRng(seed_aug, epoch, position in
// epoch): the same whatever the thread count. A bad record fails its batch:
// Next() throws kIO naming the file and record, and the epoch ends (Reset()
// starts the next one). Reset() and the destructor drop queued tasks and wait
// for the running ones; nothing blocks on a full queue, so neither can hang.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/io/image_augment.h"
#include "core/io/record_file.h"
#include "core/ndarray/ndarray.h"

namespace weft {
namespace io {

struct ImageRecordIterParam {
  std::string path_imgrec, path_imgidx;
  int batch_size = 0;
  int label_width = 1;
  bool shuffle = false, round_batch = true;
  uint64_t seed = 0, seed_aug = 0;
  int num_parts = 1, part_index = 0;
  int preprocess_threads = 4, prefetch_buffer = 4;
  AugmentParam aug;
};

// Parses MXNet-style string parameters (data_shape "(3,224,224)", "True", ...).
// Throws kInvalidArgument naming an unknown key or a bad value.
ImageRecordIterParam ParseImageRecordIterParam(const std::vector<std::pair<std::string, std::string>>& kv);

struct ImageBatch {
  NDArray data, label;
  std::vector<uint64_t> index;  // the records' header ids
  int pad = 0;
};

class ImageRecordIter {
 public:
  explicit ImageRecordIter(ImageRecordIterParam param);
  ~ImageRecordIter();
  ImageRecordIter(const ImageRecordIter&) = delete;
  ImageRecordIter& operator=(const ImageRecordIter&) = delete;

  // The next batch; false at the end of the epoch (or after an error).
  bool Next(ImageBatch* out);
  void Reset();
  int64_t num_records() const { return static_cast<int64_t>(offsets_.size()); }

 private:
  struct Pending;
  struct Task {
    std::shared_ptr<Pending> batch;
    int slot;
  };
  void BeginEpoch();
  void Dispatch();  // fills the pipeline up to prefetch_buffer batches (mu_ held)
  void Cancel();    // drops queued work and waits for running tasks (mu_ held via lock)
  void WorkerLoop();
  void RunTask(const Task& t);

  ImageRecordIterParam p_;
  std::unique_ptr<RecordFile> file_;
  std::vector<uint64_t> offsets_;  // this part's records
  int64_t first_record_ = 0;       // the file's number of offsets_[0]
  std::vector<std::pair<std::vector<int64_t>, int>> plan_;  // this epoch's batches: records, pad
  size_t next_planned_ = 0;
  int64_t epoch_ = 0, start_ = 0, next_start_ = 0;
  bool epoch_over_ = false;

  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<Task> tasks_;
  std::deque<std::shared_ptr<Pending>> inflight_;
  int running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> pool_;
};

}  // namespace io
}  // namespace weft
