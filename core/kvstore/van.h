// The transport of a worker or server node (ps-lite's Van + Postoffice, in
// one small class): the ZeroMQ sockets, one I/O thread that owns them, the
// registration with the scheduler, heartbeats, barriers and the liveness rule
// (Note [Liveness]).
//
// Note [Liveness]
//   Every node sends the scheduler a heartbeat each HeartbeatIntervalMs and
//   the scheduler answers every node the same way. A scheduler that hears
//   nothing from a registered node for WEFT_PS_TIMEOUT seconds tells all other
//   nodes to stop (kAbort, naming the dead node) and exits with status 1; a
//   node that hears nothing from the scheduler for WEFT_PS_TIMEOUT seconds, or
//   receives kAbort, prints the reason to stderr and exits with status 1. So a
//   killed worker or server ends the whole job with a clear message within
//   about WEFT_PS_TIMEOUT seconds instead of leaving the others waiting on it.
//   Heartbeats run on the I/O thread, so a node busy computing (or holding
//   Python's GIL) still counts as alive.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/kvstore/ps_auth.h"
#include "core/kvstore/ps_config.h"
#include "core/kvstore/ps_message.h"

namespace weft {
namespace ps {

class Van {
 public:
  using DataHandler = std::function<void(Message&&)>;

  // Binds (servers) and starts the I/O thread, registers with the scheduler
  // and waits for the rank and the server addresses. on_data runs on the I/O
  // thread for every message from a peer node (replies for a worker, requests
  // for a server); it must not block.
  Van(const Config& cfg, DataHandler on_data);
  ~Van();
  Van(const Van&) = delete;
  Van& operator=(const Van&) = delete;

  int rank() const { return rank_; }
  int num_servers() const { return static_cast<int>(server_addrs_.size()); }
  const Config& config() const { return cfg_; }

  // Queued for the I/O thread; thread-safe.
  void SendToServer(int server, Message&& m);
  void Reply(Message&& m);  // server: to m.identity
  // Worker: waits until every worker has called Barrier.
  void Barrier();
  // Worker: tells the scheduler this worker is done and waits until all are
  // (the scheduler then stops the servers). Later calls do nothing.
  void Finalize();
  // Server: waits until the scheduler ends the job.
  void WaitForExit();

  // Prints "weft kvstore <role> <rank>: why" to stderr and exits with status 1.
  [[noreturn]] void Die(const std::string& why) const;

 private:
  enum Target : int { kToScheduler = -1, kToReply = -2 };
  struct Outgoing {
    int target;
    Message msg;
  };

  void Enqueue(int target, Message&& m);
  void Loop();
  void OnSchedulerMessage(Message&& m);
  void ConnectServers(const std::string& addrs);
  void* NewSocket(int type);

  Config cfg_;
  Auth auth_;  // signs what this node sends, checks what it receives
  RejectionLog rejected_;
  DataHandler on_data_;
  std::string advertised_;  // server: host:port of the data socket
  std::string identity_;

  void* ctx_ = nullptr;
  void* sched_ = nullptr;               // DEALER to the scheduler
  void* data_ = nullptr;                // server: ROUTER for workers
  std::vector<void*> servers_;          // worker: DEALER per server
  int wake_fd_ = -1;                    // eventfd: the queue has work

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Outgoing> queue_;
  bool registered_ = false;
  uint64_t barrier_acks_ = 0;
  bool finalized_ = false;
  bool exit_ = false;
  std::vector<std::string> server_addrs_;
  int rank_ = -1;

  std::atomic<bool> stop_{false};
  std::thread io_;
};

}  // namespace ps
}  // namespace weft
