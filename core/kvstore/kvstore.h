// KVStore: the parameter store of docs/DESIGN.md ("KVStore"). Two levels:
//   level 1 (local, device)  reduce the values pushed from the devices of one
//                            machine, apply the updater, copy back on pull;
//   level 2 (dist_*)         the same reduction, then parameter servers over
//                            ZeroMQ (kvstore_dist.h).
// Push and pull are engine operations: a push reads the gradient vars, a pull
// writes the weight vars, so communication overlaps computation and the caller
// never waits unless it reads the result.
//
// Keys are strings (the front end turns int keys into their decimal text; a
// store refuses to mix them, as MXNet does). A key listed several times in one
// push/pull names copies on several devices: pushes of one key are summed
// before the update, pulls write every copy.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/ndarray/ndarray.h"

namespace weft {

// Called with the reduced gradient (recv) and the stored weight (stored); must
// update stored in place (pushing engine ops is fine). Runs on the pushing thread.
using KVUpdater = std::function<void(const std::string& key, const NDArray& recv, const NDArray& stored)>;

class KVStore {
 public:
  virtual ~KVStore() = default;

  // "local", "device", "dist_sync", "dist_async", "dist_device_sync" or
  // "allreduce" (kvstore_allreduce.h);
  // throws kInvalidArgument naming the type otherwise. Dist types need the
  // environment of a launched job (WEFT_ROLE=worker, ...; kvstore_env.h).
  static std::unique_ptr<KVStore> Create(const std::string& type);

  const std::string& type() const { return type_; }
  virtual int rank() const { return 0; }
  virtual int num_workers() const { return 1; }

  // keys[i] with values[i]; a key may appear once per Init (its first value
  // is the initial value; re-initialising a key is an error).
  virtual void Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) = 0;
  virtual void Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values, int priority) = 0;
  virtual void Pull(const std::vector<std::string>& keys, const std::vector<NDArray>& outs, int priority) = 0;
  // push then pull; a store may fuse the two (the allreduce store reduces
  // straight into outs when it has no updater).
  virtual void PushPull(const std::vector<std::string>& value_keys, const std::vector<NDArray>& values,
                        const std::vector<std::string>& out_keys, const std::vector<NDArray>& outs, int priority) {
    Push(value_keys, values, priority);
    Pull(out_keys, outs, priority);
  }
  // Ends every process of the job at once, printing reason (the allreduce
  // store: MPI_Abort; a rank that failed must not leave the others waiting in
  // a collective). Other stores: nothing (their liveness rule handles it).
  virtual void Abort(const std::string& reason) { (void)reason; }
  // Local update rule (level 1 only; dist stores take an optimizer instead).
  virtual void SetUpdater(KVUpdater updater);
  // Optimizer that runs where the weights live: on the servers for dist
  // stores. `spec` is JSON text {"name": ..., hyper-parameters ...}
  // (kvstore_optimizer.h). Level-1 stores refuse it: the front end gives them
  // an updater instead.
  virtual void SetOptimizer(const std::string& spec);
  virtual void Barrier() {}
  // Ends membership of a distributed job (waits for the other workers); a
  // no-op for level 1. Called by the C ABI when the handle is freed.
  virtual void Finalize() {}

 protected:
  explicit KVStore(std::string type) : type_(std::move(type)) {}
  std::string type_;
};

// Groups a push/pull call by key, keeping first-seen order: the unit the
// stores work on (one reduction / one transfer per key).
struct KeyGroup {
  std::string key;
  std::vector<NDArray> arrays;
};
std::vector<KeyGroup> GroupByKey(const std::vector<std::string>& keys, const std::vector<NDArray>& arrays,
                                 const char* what);

// Sums `values` (same shape and dtype, any devices) into `dst` with engine ops
// (copies to dst's device, then add_n). One value: a copy.
void ReduceInto(const std::vector<NDArray>& values, const NDArray& dst);

// The error for a pushed or pulled array whose shape or dtype is not the one
// the key was initialised with; names the key and both shapes.
void CheckMatchesInit(const std::string& key, const NDArray& arr, const Shape& shape, DType dtype,
                      const char* what);

}  // namespace weft
