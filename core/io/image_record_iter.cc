// Note [ImageRecordIter engine pipeline] in image_record_iter.h.
#include "core/io/image_record_iter.h"

#include <climits>
#include <cstring>
#include <numeric>

#include "core/base/error.h"

namespace weft {
namespace io {

struct ImageRecordIter::Pending {
  NDArray data, label;
  uint8_t* data_ptr = nullptr;
  float* label_ptr = nullptr;
  std::vector<int64_t> records;  // indices into offsets_
  std::vector<uint64_t> ids;
  int pad = 0;
  int64_t epoch = 0, first_position = 0;
  int remaining = 0;
  int error_slot = INT_MAX;  // the first failing sample's slot, so the message does not depend on timing
  Status error_status = Status::kOk;
  std::string error;
};

namespace {
constexpr size_t kHeaderBytes = 24;  // IRHeader: uint32 flag, float32 label, uint64 id, uint64 id2
constexpr uint64_t kShuffleSalt = 0x5348554646ULL;
}  // namespace

ImageRecordIter::ImageRecordIter(ImageRecordIterParam param) : p_(std::move(param)) {
  const auto& a = p_.aug;
  WEFT_CHECK(p_.batch_size > 0 && p_.preprocess_threads > 0 && p_.prefetch_buffer > 0, kInvalidArgument)
      << "ImageRecordIter: batch_size, preprocess_threads and prefetch_buffer must be positive";
  WEFT_CHECK((a.channels == 1 || a.channels == 3) && a.height > 0 && a.width > 0, kInvalidArgument)
      << "ImageRecordIter: data_shape must be (channels, height, width) with 1 or 3 channels";
  WEFT_CHECK(p_.num_parts > 0 && p_.part_index >= 0 && p_.part_index < p_.num_parts, kInvalidArgument)
      << "ImageRecordIter: part_index must be in [0, num_parts), got part_index=" << p_.part_index
      << ", num_parts=" << p_.num_parts;
  WEFT_CHECK(p_.label_width > 0, kInvalidArgument) << "ImageRecordIter: label_width must be positive";
  file_ = std::make_unique<RecordFile>(p_.path_imgrec);
  std::vector<uint64_t> all = p_.path_imgidx.empty() ? file_->ScanOffsets() : file_->ReadIndex(p_.path_imgidx);
  const int64_t n = static_cast<int64_t>(all.size());
  const int64_t step = (n + p_.num_parts - 1) / p_.num_parts;
  first_record_ = std::min(n, step * p_.part_index);
  const int64_t end = std::min(n, first_record_ + step);
  offsets_.assign(all.begin() + first_record_, all.begin() + end);
  WEFT_CHECK(!offsets_.empty(), kIO) << p_.path_imgrec << ": no records (part " << p_.part_index << " of "
                                     << p_.num_parts << ")";
  WEFT_CHECK(!p_.round_batch || num_records() >= p_.batch_size, kInvalidArgument)
      << p_.path_imgrec << ": number of input must be bigger than batch size (" << num_records()
      << " records, batch_size " << p_.batch_size << ")";
  {
    std::lock_guard<std::mutex> lk(mu_);
    BeginEpoch();
  }
  for (int i = 0; i < p_.preprocess_threads; ++i) pool_.emplace_back([this] { WorkerLoop(); });
}

ImageRecordIter::~ImageRecordIter() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
    tasks_.clear();
  }
  work_cv_.notify_all();
  for (auto& t : pool_) t.join();
}

void ImageRecordIter::BeginEpoch() {
  const int64_t n = num_records(), bs = p_.batch_size;
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  if (p_.shuffle) {  // Fisher-Yates from (seed, epoch): reproducible, and the same on every platform
    SampleRng rng(p_.seed, static_cast<uint64_t>(epoch_), kShuffleSalt);
    for (int64_t i = n - 1; i > 0; --i) std::swap(order[i], order[rng.RandInt(0, i)]);
  }
  plan_.clear();
  next_planned_ = 0;
  next_start_ = 0;
  epoch_over_ = false;
  for (int64_t pos = start_; pos < n;) {
    if (pos + bs <= n) {
      plan_.emplace_back(std::vector<int64_t>(order.begin() + pos, order.begin() + pos + bs), 0);
      pos += bs;
      continue;
    }
    std::vector<int64_t> last(order.begin() + pos, order.end());
    const int missing = static_cast<int>(bs - (n - pos));
    if (p_.round_batch) {  // wrap to the start; the next epoch begins after the wrapped records
      last.insert(last.end(), order.begin(), order.begin() + missing);
      next_start_ = missing;
    }
    plan_.emplace_back(std::move(last), missing);
    pos = n;
  }
  Dispatch();
}

void ImageRecordIter::Dispatch() {
  const auto& a = p_.aug;
  const int64_t bs = p_.batch_size;
  const size_t sample_bytes = static_cast<size_t>(a.channels) * a.height * a.width * (a.normalize ? 4 : 1);
  bool added = false;
  while (inflight_.size() < static_cast<size_t>(p_.prefetch_buffer) && next_planned_ < plan_.size()) {
    auto b = std::make_shared<Pending>();
    b->records = plan_[next_planned_].first;
    b->pad = plan_[next_planned_].second;
    b->epoch = epoch_;
    b->first_position = static_cast<int64_t>(next_planned_) * bs;
    b->data = NDArray(Shape{bs, a.channels, a.height, a.width}, Context::CPU(),
                      a.normalize ? DType::kFloat32 : DType::kUint8);
    b->label = NDArray(p_.label_width == 1 ? Shape{bs} : Shape{bs, p_.label_width}, Context::CPU(), DType::kFloat32);
    // Fresh arrays with no op pushed on their vars: Note [ImageRecordIter engine pipeline].
    b->data_ptr = static_cast<uint8_t*>(b->data.data());
    b->label_ptr = static_cast<float*>(b->label.data());
    const size_t filled = b->records.size();
    b->ids.assign(static_cast<size_t>(bs), 0);
    if (filled < static_cast<size_t>(bs)) {  // round_batch=False: the padding samples are zeros
      std::memset(b->data_ptr + filled * sample_bytes, 0, (bs - filled) * sample_bytes);
      std::memset(b->label_ptr + filled * p_.label_width, 0, (bs - filled) * p_.label_width * sizeof(float));
    }
    b->remaining = static_cast<int>(filled);
    for (size_t s = 0; s < filled; ++s) tasks_.push_back({b, static_cast<int>(s)});
    inflight_.push_back(std::move(b));
    ++next_planned_;
    added = true;
  }
  if (added) work_cv_.notify_all();
}

void ImageRecordIter::WorkerLoop() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    work_cv_.wait(lk, [this] { return stop_ || !tasks_.empty(); });
    if (stop_) return;
    Task t = std::move(tasks_.front());
    tasks_.pop_front();
    ++running_;
    lk.unlock();
    RunTask(t);
    lk.lock();
    --running_;
    --t.batch->remaining;
    done_cv_.notify_all();
  }
}

void ImageRecordIter::RunTask(const Task& t) {
  Pending& b = *t.batch;
  const int64_t local = b.records[static_cast<size_t>(t.slot)];
  const int64_t record = first_record_ + local;
  const std::string where = p_.path_imgrec + " record " + std::to_string(record);
  const auto& a = p_.aug;
  try {
    std::string raw;
    file_->Read(offsets_[static_cast<size_t>(local)], record, &raw);
    WEFT_CHECK(raw.size() >= kHeaderBytes, kIO) << where << ": record of " << raw.size()
                                                << " bytes is too short for an IRHeader (24 bytes)";
    uint32_t flag;
    uint64_t id;
    std::memcpy(&flag, raw.data(), 4);
    std::memcpy(&id, raw.data() + 8, 8);
    size_t at = kHeaderBytes;
    const int64_t labels = flag > 0 ? flag : 1;
    float* label_out = b.label_ptr + static_cast<size_t>(t.slot) * p_.label_width;
    WEFT_CHECK(flag == 0 || raw.size() - kHeaderBytes >= 4 * static_cast<size_t>(flag), kIO)
        << where << ": the record says it has " << flag << " float labels but holds only "
        << raw.size() - kHeaderBytes << " bytes after its header";
    WEFT_CHECK(labels == p_.label_width, kIO)
        << where << " has " << labels << " labels, but label_width is " << p_.label_width;
    if (flag == 0) {
      std::memcpy(label_out, raw.data() + 4, 4);
    } else {
      std::memcpy(label_out, raw.data() + at, 4 * static_cast<size_t>(flag));
      at += 4 * static_cast<size_t>(flag);
    }
    b.ids[static_cast<size_t>(t.slot)] = id;
    SampleRng rng(p_.seed_aug, static_cast<uint64_t>(b.epoch), static_cast<uint64_t>(b.first_position + t.slot));
    const size_t sample = static_cast<size_t>(a.channels) * a.height * a.width * (a.normalize ? 4 : 1);
    DecodeAugmentInto(reinterpret_cast<const uint8_t*>(raw.data()) + at, raw.size() - at, a, &rng, where,
                      b.data_ptr + static_cast<size_t>(t.slot) * sample);
  } catch (const std::exception& e) {
    const auto* we = dynamic_cast<const Error*>(&e);
    std::lock_guard<std::mutex> lk(mu_);
    if (t.slot < b.error_slot) {
      b.error_slot = t.slot;
      b.error_status = we ? we->status() : Status::kIO;
      b.error = we ? e.what() : where + ": " + e.what();
    }
  }
}

void ImageRecordIter::Cancel() {
  std::unique_lock<std::mutex> lk(mu_, std::adopt_lock);
  tasks_.clear();
  done_cv_.wait(lk, [this] { return running_ == 0; });
  inflight_.clear();
  lk.release();  // the caller keeps holding mu_
}

bool ImageRecordIter::Next(ImageBatch* out) {
  std::unique_lock<std::mutex> lk(mu_);
  if (epoch_over_) return false;
  Dispatch();
  if (inflight_.empty()) {
    epoch_over_ = true;
    return false;
  }
  std::shared_ptr<Pending> b = inflight_.front();
  done_cv_.wait(lk, [&] { return b->remaining == 0; });
  inflight_.pop_front();
  if (!b->error.empty()) {
    epoch_over_ = true;
    Cancel();
    throw Error(b->error_status, b->error);
  }
  Dispatch();
  lk.unlock();
  out->data = std::move(b->data);
  out->label = std::move(b->label);
  out->index = std::move(b->ids);
  out->pad = b->pad;
  return true;
}

void ImageRecordIter::Reset() {
  std::unique_lock<std::mutex> lk(mu_);
  Cancel();
  ++epoch_;
  start_ = next_start_;
  BeginEpoch();
}

}  // namespace io
}  // namespace weft
