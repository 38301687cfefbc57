// Level 2, the worker side: dist_sync, dist_async and dist_device_sync.
// Values pushed from several devices are first reduced on this machine (level
// 1), then each key travels to the server that owns it; keys with at least
// WEFT_KVSTORE_BIGARRAY_BOUND elements are split by range across all servers.
//
// Push and pull are engine ops on the communication lanes (FnProperty::kAsync):
// a push reads the gradient's var, a pull writes the weight's var, and both
// write the key's buffer var so a pull of a key comes after its push. A push
// op queues its messages and returns (Note [Detached push]); a pull op sends
// the requests of all the keys of one call that share its lane, then blocks
// the lane until the replies arrive. Keys are spread over kCommLanes lanes so
// several travel at once. dist_device_sync is dist_sync with the level-1 sum
// made where the values live (with CPU devices the two are the same).
//
// Note [Lane order]
//   A dist_sync pull waits on the server until every worker has pushed the
//   key. If a lane ran whichever op was ready first, worker 1 could block in
//   "pull a" while its "push b" waits behind it, and worker 2 in "pull b" with
//   "push a" behind: a deadlock. So each lane also writes a lane var: its ops
//   run in the order the program issued them, which is the same on every
//   worker (the same script), and a pull then only waits for pushes that the
//   other workers issued before theirs of the same lane position.
//
// Note [Detached push]
//   A push op copies the gradient into the message and returns once it is
//   queued: pushes of many keys stream out back to back instead of one round
//   trip each. The server still acknowledges every push; an error reply (say,
//   a key another worker never initialised) is kept and raised by the next
//   push or pull of that key. ZeroMQ keeps one connection's messages in order,
//   so a pull always reaches the server after this worker's earlier pushes.
#pragma once
#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/kvstore/kvstore.h"
#include "core/kvstore/ps_message.h"

namespace weft {
namespace ps {
class Van;
}

class DistKVStore : public KVStore {
 public:
  static constexpr int kCommLanes = 8;

  explicit DistKVStore(const std::string& type);
  ~DistKVStore() override;

  int rank() const override;
  int num_workers() const override;
  void Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) override;
  void Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values, int priority) override;
  void Pull(const std::vector<std::string>& keys, const std::vector<NDArray>& outs, int priority) override;
  void SetOptimizer(const std::string& spec) override;
  void Barrier() override;
  void Finalize() override;

 private:
  struct Part {
    int server;
    int64_t begin, end;  // element range
  };
  struct KeyInfo {
    Shape shape;
    DType dtype;
    std::vector<Part> parts;
    NDArray buffer;  // cpu(0): reduced pushes and multi-destination pulls; its var orders push and pull
    int lane = 0;
  };
  struct Pending {
    char* dst = nullptr;  // pull: where the reply's bytes go
    size_t dst_bytes = 0;
    std::string error;
    bool done = false;
    bool detached = false;  // a push nobody waits for (Note [Detached push])
    std::string key;
  };

  KeyInfo& Find(const std::string& key, const char* what);
  // One request per part of the key (data: the whole array's bytes); waits
  // for every reply and throws the first error, naming the key.
  void Transfer(ps::Command c, const std::string& key, const KeyInfo& info, char* data);
  // The same for several keys at once: every request goes out before the
  // first reply is awaited (a multi-key pull is one round trip, not one per key).
  struct Job {
    std::string key;
    const KeyInfo* info;
    char* data;
  };
  void Transfer(ps::Command c, const std::vector<Job>& jobs);
  // A detached push of every part (Note [Detached push]).
  void SendPush(const std::string& key, const KeyInfo& info, const char* data);
  // Throws the error a detached push of key got, if any.
  void RaiseDeferredError(const std::string& key);
  void OnReply(ps::Message&& m);
  void WaitPendingOps();
  void SendOptimizer(const std::string& spec);

  std::unique_ptr<ps::Van> van_;
  bool sync_ = true;
  std::vector<VarHandle> lane_vars_;  // Note [Lane order]
  std::map<std::string, KeyInfo> keys_;  // nodes are stable: ops keep pointers

  std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<uint64_t, Pending*> pending_;
  std::map<std::string, std::string> push_errors_;  // by key, from detached pushes
  std::atomic<uint64_t> next_id_{1};
  bool finalized_ = false;
};

}  // namespace weft
