// The allreduce store ("allreduce"): data-parallel training without servers.
// Every worker keeps every weight; a push sums the gradient over all workers
// with an MPI collective (libweft_mpi.so, Note [MPI as a plugin] in
// docs/ARCHITECTURE.md), then the updater runs (or the store keeps the sum);
// init broadcasts rank 0's values. Rank and world size are MPI's.
//
// Note [Collectives as engine ops]
//   Each collective is one engine op that reads the gradients' vars and
//   writes the result vars, so a bucket goes out as soon as backward has
//   written its gradients while backward goes on with the layers below. MPI
//   needs every rank to issue the same collectives in the same order, and the
//   engine runs ready ops in any order, so every op also writes one lane var:
//   collectives run in the order the program issued them, which is the same
//   on every rank (the same script). Within one push/pushpull call the keys
//   are taken from the last to the first: Trainer passes parameters in
//   forward order and backward makes the last layer's gradient first.
//
// Note [Buckets]
//   Keys of at most WEFT_ALLREDUCE_BUCKET_BYTES (default 4 MiB) are packed
//   into one contiguous buffer per bucket (same dtype, up to that size) and
//   reduced with one MPI call: 100 keys of 10k floats cost ~3 calls, not 100.
//   A larger key is reduced in place in pieces of that size, each its own op,
//   so its first pieces travel while later layers' ops are still queued.
//   Ops run one at a time on the lane, so one scratch buffer serves them all.
//
// Faults: a collective that does not finish within WEFT_ALLREDUCE_TIMEOUT
// seconds (default 300) aborts the job on every rank with a message (the
// plugin's MPI_Abort); init refuses a rank whose model (keys, shapes, dtypes)
// or expected world size (WEFT_NUM_WORKER) differs from rank 0's, naming both.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/kvstore/kvstore.h"

struct weft_mpi_api;

namespace weft {

class AllreduceKVStore : public KVStore {
 public:
  explicit AllreduceKVStore(const std::string& type);
  ~AllreduceKVStore() override;

  int rank() const override { return rank_; }
  int num_workers() const override { return size_; }
  void Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) override;
  void Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values, int priority) override;
  void Pull(const std::vector<std::string>& keys, const std::vector<NDArray>& outs, int priority) override;
  void PushPull(const std::vector<std::string>& value_keys, const std::vector<NDArray>& values,
                const std::vector<std::string>& out_keys, const std::vector<NDArray>& outs, int priority) override;
  void SetUpdater(KVUpdater updater) override { updater_ = std::move(updater); }
  void Barrier() override;
  void Finalize() override;
  void Abort(const std::string& reason) override;

  size_t bucket_bytes() const { return bucket_bytes_; }

 private:
  struct Entry {
    NDArray stored;  // cpu(0): the weight (or, with no updater, the last sum)
    NDArray merged;  // cpu(0): this worker's level-1 sum, reduced in place over the workers
  };
  // One reduction: src's values summed over the workers into dst (a
  // contiguous cpu array; src may be dst itself).
  struct Move {
    NDArray src, dst;
  };
  Entry& Find(const std::string& key, const char* what);
  // Note [Buckets]: pushes the ops reducing every move, from the last to the first.
  void ScheduleReductions(const std::vector<Move>& moves, int priority);
  void PushBucket(const std::vector<Move>& bucket, int priority);
  void PushPieces(const Move& m, int priority);
  // Runs fn as an op on the lane and waits for it (init, barrier).
  void RunOnLaneAndWait(const std::function<void()>& fn, const char* name);
  void CheckSameModel(const std::string& description);
  [[noreturn]] void Fail(const char* what, const char* err);

  const weft_mpi_api* mpi_ = nullptr;
  int rank_ = 0, size_ = 1;
  size_t bucket_bytes_ = 4u << 20;
  double timeout_s_ = 300;
  VarHandle lane_ = nullptr;  // Note [Collectives as engine ops]; shared by every allreduce store
  std::vector<char> scratch_;  // the bucket buffer (this store's ops run one at a time on the lane)
  std::map<std::string, Entry> entries_;
  KVUpdater updater_;
};

}  // namespace weft
