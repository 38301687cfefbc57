// The parameter server node (Note [Server consistency]).
//
// Note [Server consistency]
//   Each server holds the keys (or ranges of big keys) the workers' sharding
//   gives it. dist_sync pushes (kFlagSync) are summed until every worker has
//   pushed the key once; then the optimizer (or, without one, a plain copy of
//   the sum) updates the weight: one round. A push is acknowledged as soon as
//   its bytes are summed, so a worker's communication lane never waits for
//   other workers there; instead a worker's pull of a key it pushed in round r
//   is answered only once round r is complete (pulls wait, pushes never), so
//   it sees the new weight.
//   dist_async pushes update the weight at once (without an optimizer the
//   pushed value replaces it). Requests that do not fit (unknown key, other
//   size or dtype than at init) get an error reply naming the key; the server
//   keeps serving.
#pragma once
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/kvstore/ps_config.h"
#include "core/kvstore/ps_message.h"
#include "core/kvstore/server_optimizer.h"
#include "core/ndarray/ndarray.h"

namespace weft {
namespace ps {

class Van;

// Runs a server until the scheduler ends the job (returns 0).
int RunServer(const Config& cfg);

// The request handling of a server, apart from its transport (tests drive it
// directly). Replies go to `reply`.
class ServerHandler {
 public:
  ServerHandler(int num_workers, std::function<void(Message&&)> reply)
      : num_workers_(num_workers), reply_(std::move(reply)) {}
  void Handle(Message&& req);

 private:
  struct Entry {
    NDArray stored, merged, recv;
    uint64_t offset = 0, total = 0;
    int pushes = 0;                    // in the current round
    uint64_t rounds = 0;               // completed rounds
    std::vector<uint64_t> needs;       // per worker: rounds its next pull must wait for
    std::vector<Message> pulls;        // pulls waiting for the round to complete
    // stored's bytes as a frame, shared by every pull until stored changes
    // (one copy per update instead of one per pulling worker).
    Frame reply;
    bool reply_valid = false;
  };
  void HandleInit(Message&& req);
  void HandlePush(Message&& req);
  void HandlePull(Message&& req);
  void ReplyPull(Entry& e, const Message& req);
  Entry& Find(const Message& req);
  void Ack(const Message& req, Command c = Command::kAck, Frame payload = Frame());

  int num_workers_;
  std::function<void(Message&&)> reply_;
  std::map<std::string, Entry> entries_;
  std::unique_ptr<ServerOptimizer> optimizer_;
};

}  // namespace ps
}  // namespace weft
