#include "core/kvstore/scheduler.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/kvstore/ps_auth.h"
#include "core/kvstore/ps_message.h"

namespace weft {
namespace ps {
namespace {

using Clock = std::chrono::steady_clock;

struct NodeInfo {
  Role role = Role::kWorker;
  int rank = -1;
  std::string address;  // servers: host:port of the data socket
  uint64_t incarnation = 0;  // the process that registered (Note [PS runs])
  uint64_t challenge = 0;    // its register's, echoed in the acknowledgement
  Clock::time_point last_seen;
  bool finalized = false;
};

class Scheduler {
 public:
  explicit Scheduler(const Config& cfg)
      : cfg_(cfg), auth_(cfg.secret, Role::kScheduler), rejected_("weft kvstore scheduler") {}
  ~Scheduler() {
    if (sock_) zmq_close(sock_);
    if (ctx_) zmq_ctx_term(ctx_);
  }

  int Run();

 private:
  void Send(const std::string& identity, Message&& m) {
    m.identity = identity;
    m.head.sender = 0;
    auto it = nodes_.find(identity);
    if (it != nodes_.end()) AddressTo(&m, it->second.role, it->second.rank);
    SendMessage(sock_, std::move(m), true, &auth_);
  }
  void Broadcast(Command c, const std::string& payload, bool workers, bool servers) {
    for (auto& kv : nodes_) {
      bool w = kv.second.role == Role::kWorker;
      if ((w && workers) || (!w && servers)) Send(kv.first, MakeMessage(c, "", payload));
    }
  }
  void OnMessage(Message&& m);
  void AssignRanks();
  int Abort(const std::string& why);
  std::string Describe(const std::string& identity) const;

  Config cfg_;
  Auth auth_;
  RejectionLog rejected_;
  void* ctx_ = nullptr;
  void* sock_ = nullptr;
  std::map<std::string, NodeInfo> nodes_;  // by ZeroMQ identity
  bool ranks_assigned_ = false;
  std::vector<std::string> barrier_waiting_;
  int finalized_ = 0;
};

// A node's ZeroMQ identity for the log: its own name ("worker@host/pid N",
// van.cc), or the bytes ZeroMQ drew for a peer that set none (they start
// with a NUL, which would cut the line short).
std::string Printable(const std::string& identity) {
  bool text = !identity.empty();
  for (unsigned char c : identity) text = text && c >= 0x20 && c < 0x7f;
  if (text) return identity;
  static const char kHex[] = "0123456789abcdef";
  std::string out = "routing id 0x";
  for (unsigned char c : identity) out += std::string{kHex[c >> 4], kHex[c & 15]};
  return out;
}

std::string Scheduler::Describe(const std::string& identity) const {
  auto it = nodes_.find(identity);
  if (it == nodes_.end()) return Printable(identity);
  return std::string(RoleName(it->second.role)) + " " + std::to_string(it->second.rank) + " (" +
         Printable(identity) + ")";
}

void Scheduler::AssignRanks() {
  int next[2] = {0, 0};
  std::string book;
  // Servers first, in registration-independent (identity) order, so every
  // worker sees the same address book.
  for (auto& kv : nodes_) {
    NodeInfo& n = kv.second;
    n.rank = next[static_cast<int>(n.role)]++;
    if (n.role == Role::kServer) book += n.address + "\n";
  }
  for (auto& kv : nodes_) {
    Message ack = MakeMessage(Command::kRegisterAck, "", book);
    ack.head.arg = kv.second.rank;
    ack.head.request_id = kv.second.challenge;
    Send(kv.first, std::move(ack));
    kv.second.last_seen = Clock::now();
  }
  ranks_assigned_ = true;
}

void Scheduler::OnMessage(Message&& m) {
  auto it = nodes_.find(m.identity);
  // The connection names a node, the MAC the process: both must be the one
  // that registered (a node restarted under the same name -- same host and
  // pid, as in a container -- is another process; Note [PS runs]).
  if (it != nodes_.end() && m.head.incarnation != it->second.incarnation) {
    rejected_.Note(m.peer, "message on the connection of " + Describe(m.identity) +
                               " signed by another process (process id " + Hex64(m.head.incarnation) +
                               ", registered as " + Hex64(it->second.incarnation) + "): restarted, or replayed");
    return;
  }
  if (it == nodes_.end() && m.command() != Command::kRegister) {
    rejected_.Note(m.peer, std::string(CommandName(m.command())) + " message from a node that has not registered "
                                                                     "in this run");
    return;
  }
  if (it != nodes_.end()) it->second.last_seen = Clock::now();
  switch (m.command()) {
    case Command::kRegister: {
      if (it != nodes_.end()) return;  // the same process again (the check above): already counted
      if (ranks_assigned_) {
        std::fprintf(stderr, "weft kvstore scheduler: ignoring a late registration from %s\n",
                     Printable(m.identity).c_str());
        return;
      }
      if (m.head.arg != static_cast<int>(Role::kWorker) && m.head.arg != static_cast<int>(Role::kServer)) return;
      NodeInfo n;
      n.role = static_cast<Role>(m.head.arg);
      n.address = m.payload.str();
      n.incarnation = m.head.incarnation;
      n.challenge = m.head.request_id;
      n.last_seen = Clock::now();
      nodes_[m.identity] = n;
      int workers = 0, servers = 0;
      for (auto& kv : nodes_) (kv.second.role == Role::kWorker ? workers : servers)++;
      if (workers == cfg_.num_workers && servers == cfg_.num_servers) AssignRanks();
      if (workers > cfg_.num_workers || servers > cfg_.num_servers) {
        std::fprintf(stderr, "weft kvstore scheduler: more nodes registered than WEFT_NUM_WORKER=%d / "
                     "WEFT_NUM_SERVER=%d\n", cfg_.num_workers, cfg_.num_servers);
      }
      return;
    }
    case Command::kBarrier:
      barrier_waiting_.push_back(m.identity);
      if (static_cast<int>(barrier_waiting_.size()) == cfg_.num_workers) {
        for (const std::string& id : barrier_waiting_) Send(id, MakeMessage(Command::kBarrierAck));
        barrier_waiting_.clear();
      }
      return;
    case Command::kFinalize:
      if (it->second.finalized) return;
      it->second.finalized = true;
      ++finalized_;
      return;
    default:
      return;  // heartbeats: last_seen is updated above
  }
}

int Scheduler::Abort(const std::string& why) {
  std::fprintf(stderr, "weft kvstore scheduler: %s; stopping every node\n", why.c_str());
  std::fflush(stderr);
  for (auto& kv : nodes_) {
    Message abort = MakeMessage(Command::kAbort, "", why);
    abort.head.request_id = kv.second.challenge;  // a node not yet in the run checks it (Note [PS runs])
    Send(kv.first, std::move(abort));
  }
  return 1;
}

int Scheduler::Run() {
  ctx_ = zmq_ctx_new();
  sock_ = zmq_socket(ctx_, ZMQ_ROUTER);
  int linger = 2000, hwm = 0;
  zmq_setsockopt(sock_, ZMQ_LINGER, &linger, sizeof(linger));
  zmq_setsockopt(sock_, ZMQ_SNDHWM, &hwm, sizeof(hwm));
  zmq_setsockopt(sock_, ZMQ_RCVHWM, &hwm, sizeof(hwm));
  // Control messages are small; anything big is garbage.
  int64_t limit = 1 << 20;
  zmq_setsockopt(sock_, ZMQ_MAXMSGSIZE, &limit, sizeof(limit));
  // The address the others reach it at, not every interface (Note [PS authentication]).
  std::string ep = "tcp://" + cfg_.ListenAddress() + ":" + std::to_string(cfg_.root_port);
  WEFT_CHECK(zmq_bind(sock_, ep.c_str()) == 0, kIO)
      << "kvstore scheduler: cannot listen on " << ep << ": " << zmq_strerror(zmq_errno())
      << (cfg_.node_host_given ? "" : " (is WEFT_PS_ROOT_URI=" + cfg_.root_uri + " an address of this machine? "
                                      "else set WEFT_NODE_HOST to this node's interface address)");

  // Names the run in the log: the id every message of it carries (Note [PS runs]).
  std::fprintf(stderr, "weft kvstore scheduler: run %s of job %s\n", Hex64(auth_.run_id()).c_str(),
               Hex64(auth_.job_id()).c_str());
  std::fflush(stderr);
  const int beat_ms = HeartbeatIntervalMs(cfg_.timeout_s);
  const double reg_timeout = cfg_.timeout_s * 3 > 30 ? cfg_.timeout_s * 3 : 30;
  const auto started = Clock::now();
  auto next_beat = Clock::now();
  std::string why;
  for (;;) {
    zmq_pollitem_t item{sock_, 0, ZMQ_POLLIN, 0};
    zmq_poll(&item, 1, beat_ms);
    Message m;
    for (;;) {
      bool ok = ReceiveMessage(sock_, true, 1 << 20, &auth_, RoleBit(Role::kWorker) | RoleBit(Role::kServer), &m,
                               &why);
      if (!ok && why.empty()) break;
      if (!ok) {
        rejected_.Note(m.peer, why);
        continue;
      }
      OnMessage(std::move(m));
      m = Message();
    }
    if (!barrier_waiting_.empty() &&
        static_cast<int>(barrier_waiting_.size()) + finalized_ == cfg_.num_workers) {
      return Abort(std::to_string(finalized_) + " worker(s) finished while " +
                   std::to_string(barrier_waiting_.size()) +
                   " wait at a barrier that can never complete (every worker must call barrier alike)");
    }
    if (ranks_assigned_ && finalized_ == cfg_.num_workers) {
      Broadcast(Command::kExit, "", false, true);
      Broadcast(Command::kFinalizeAck, "", true, false);
      return 0;
    }
    auto now = Clock::now();
    if (!ranks_assigned_) {
      if (std::chrono::duration<double>(now - started).count() > reg_timeout) {
        int workers = 0, servers = 0;
        for (auto& kv : nodes_) (kv.second.role == Role::kWorker ? workers : servers)++;
        return Abort("only " + std::to_string(workers) + " of " + std::to_string(cfg_.num_workers) +
                     " workers and " + std::to_string(servers) + " of " + std::to_string(cfg_.num_servers) +
                     " servers registered within " + std::to_string(static_cast<int>(reg_timeout)) + " s");
      }
      continue;
    }
    for (auto& kv : nodes_) {
      if (kv.second.finalized) continue;
      double silent = std::chrono::duration<double>(now - kv.second.last_seen).count();
      if (silent > cfg_.timeout_s) {
        return Abort(Describe(kv.first) + " sent nothing for " + std::to_string(static_cast<int>(silent)) +
                     " s (WEFT_PS_TIMEOUT=" + std::to_string(static_cast<int>(cfg_.timeout_s)) +
                     "): it has died or hangs");
      }
    }
    if (now >= next_beat) {
      for (auto& kv : nodes_) Send(kv.first, MakeMessage(Command::kHeartbeat));
      next_beat = now + std::chrono::milliseconds(beat_ms);
    }
  }
}

}  // namespace

int RunScheduler(const Config& cfg) {
  Scheduler s(cfg);
  return s.Run();
}

}  // namespace ps
}  // namespace weft
