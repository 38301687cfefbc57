#include "core/kvstore/van.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <sstream>

#include "core/base/error.h"

namespace weft {
namespace ps {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Registration may take longer than a heartbeat period (processes start one
// by one, Python imports are slow), but never forever.
double RegistrationTimeout(double timeout_s) { return timeout_s * 3 > 30 ? timeout_s * 3 : 30; }

}  // namespace

void* Van::NewSocket(int type) {
  void* s = zmq_socket(ctx_, type);
  WEFT_CHECK(s != nullptr, kIO) << "kvstore: zmq_socket failed: " << zmq_strerror(zmq_errno());
  int linger = 1000;
  zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
  // Peers may be slow; never drop a message because a queue filled up.
  int hwm = 0;
  zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof(hwm));
  zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, sizeof(hwm));
  return s;
}

Van::Van(const Config& cfg, DataHandler on_data)
    : cfg_(cfg),
      auth_(cfg.secret, cfg.role),
      rejected_(std::string("weft kvstore ") + RoleName(cfg.role)),
      on_data_(std::move(on_data)) {
  ctx_ = zmq_ctx_new();
  WEFT_CHECK(ctx_ != nullptr, kIO) << "kvstore: zmq_ctx_new failed";
  std::ostringstream id;
  id << RoleName(cfg_.role) << "@" << cfg_.node_host << "/pid " << getpid();
  identity_ = id.str();
  if (cfg_.role == Role::kServer) {
    data_ = NewSocket(ZMQ_ROUTER);
    // ZeroMQ drops (and disconnects) a peer sending more than this, before
    // allocating it; the header check then logs what arrives within the limit.
    int64_t limit = static_cast<int64_t>(cfg_.max_message_bytes + (64 << 10));
    zmq_setsockopt(data_, ZMQ_MAXMSGSIZE, &limit, sizeof(limit));
    // Only the interface this node advertises: nothing outside the job's
    // network reaches it (Note [PS authentication]).
    std::string ep = "tcp://" + cfg_.ListenAddress() + ":" +
                     (cfg_.node_port ? std::to_string(cfg_.node_port) : std::string("*"));
    WEFT_CHECK(zmq_bind(data_, ep.c_str()) == 0, kIO)
        << "kvstore server: cannot listen on " << ep << ": " << zmq_strerror(zmq_errno());
    char last[256] = {0};
    size_t len = sizeof(last);
    zmq_getsockopt(data_, ZMQ_LAST_ENDPOINT, last, &len);
    std::string bound(last);
    advertised_ = cfg_.node_host + ":" + bound.substr(bound.rfind(':') + 1);
  }
  sched_ = NewSocket(ZMQ_DEALER);
  zmq_setsockopt(sched_, ZMQ_ROUTING_ID, identity_.data(), identity_.size());
  std::string sched_ep = cfg_.SchedulerEndpoint();
  WEFT_CHECK(zmq_connect(sched_, sched_ep.c_str()) == 0, kIO)
      << "kvstore: cannot connect to the scheduler at " << sched_ep << ": " << zmq_strerror(zmq_errno());
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  WEFT_CHECK(wake_fd_ >= 0, kIO) << "kvstore: eventfd failed";

  Message reg = MakeMessage(Command::kRegister, "", advertised_);
  reg.head.arg = static_cast<int32_t>(cfg_.role);
  reg.head.request_id = auth_.NewChallenge();  // the acknowledgement must echo it (Note [PS runs])
  AddressTo(&reg, Role::kScheduler, 0);
  Enqueue(kToScheduler, std::move(reg));
  io_ = std::thread([this] { Loop(); });

  std::unique_lock<std::mutex> lk(mu_);
  auto limit = std::chrono::duration<double>(RegistrationTimeout(cfg_.timeout_s));
  if (!cv_.wait_for(lk, limit, [this] { return registered_; })) {
    lk.unlock();
    Die("no answer from the scheduler at " + sched_ep + " within " +
        std::to_string(static_cast<int>(limit.count())) + " s (are all " +
        std::to_string(cfg_.num_workers) + " workers and " + std::to_string(cfg_.num_servers) +
        " servers started, and is WEFT_PS_ROOT_URI right?)");
  }
}

Van::~Van() {
  stop_ = true;
  uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof(one)) < 0) {
  }
  if (io_.joinable()) io_.join();
  for (void* s : servers_) zmq_close(s);
  if (data_) zmq_close(data_);
  if (sched_) zmq_close(sched_);
  if (ctx_) zmq_ctx_term(ctx_);
  if (wake_fd_ >= 0) close(wake_fd_);
}

void Van::Die(const std::string& why) const {
  std::fprintf(stderr, "weft kvstore %s %d: %s\n", RoleName(cfg_.role), rank_, why.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  _exit(1);
}

void Van::Enqueue(int target, Message&& m) {
  m.head.sender = rank_;
  if (target == kToScheduler) AddressTo(&m, Role::kScheduler, 0);
  if (target >= 0) AddressTo(&m, Role::kServer, target);  // kToReply: the handler addressed it
  {
    std::lock_guard<std::mutex> lk(mu_);
    queue_.push_back(Outgoing{target, std::move(m)});
  }
  uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof(one)) < 0) {
  }  // the counter saturating only means a wake-up is pending already
}

void Van::SendToServer(int server, Message&& m) {
  WEFT_CHECK(server >= 0 && server < num_servers(), kInternal) << "kvstore: no server " << server;
  Enqueue(server, std::move(m));
}

void Van::Reply(Message&& m) { Enqueue(kToReply, std::move(m)); }

void Van::Barrier() {
  std::unique_lock<std::mutex> lk(mu_);
  uint64_t target = barrier_acks_ + 1;
  lk.unlock();
  Enqueue(kToScheduler, MakeMessage(Command::kBarrier));
  lk.lock();
  cv_.wait(lk, [&] { return barrier_acks_ >= target; });
}

void Van::Finalize() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (finalized_) return;
  }
  Enqueue(kToScheduler, MakeMessage(Command::kFinalize));
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return finalized_; });
}

void Van::WaitForExit() {
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return exit_; });
}

void Van::ConnectServers(const std::string& addrs) {
  std::istringstream in(addrs);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    server_addrs_.push_back(line);
    if (cfg_.role != Role::kWorker) continue;
    void* s = NewSocket(ZMQ_DEALER);
    std::string ep = "tcp://" + line;
    if (zmq_connect(s, ep.c_str()) != 0) Die("cannot connect to server " + ep + ": " + zmq_strerror(zmq_errno()));
    servers_.push_back(s);
  }
}

void Van::OnSchedulerMessage(Message&& m) {
  switch (m.command()) {
    case Command::kRegisterAck: {
      ConnectServers(m.payload.str());
      std::lock_guard<std::mutex> lk(mu_);
      rank_ = m.head.arg;
      auth_.set_rank(rank_);
      registered_ = true;
      cv_.notify_all();
      break;
    }
    case Command::kBarrierAck: {
      std::lock_guard<std::mutex> lk(mu_);
      ++barrier_acks_;
      cv_.notify_all();
      break;
    }
    case Command::kFinalizeAck: {
      std::lock_guard<std::mutex> lk(mu_);
      finalized_ = true;
      cv_.notify_all();
      break;
    }
    case Command::kExit: {
      std::lock_guard<std::mutex> lk(mu_);
      exit_ = true;
      cv_.notify_all();
      break;
    }
    case Command::kAbort:
      Die("the job was stopped: " + m.payload.str());
    default:
      break;  // heartbeats only prove the scheduler is alive
  }
}

void Van::Loop() {
  const int beat_ms = HeartbeatIntervalMs(cfg_.timeout_s);
  auto last_from_sched = Clock::now();
  auto next_beat = Clock::now();
  std::string why;
  std::vector<zmq_pollitem_t> items;
  while (!stop_) {
    items.clear();
    items.push_back({sched_, 0, ZMQ_POLLIN, 0});
    items.push_back({nullptr, wake_fd_, ZMQ_POLLIN, 0});
    if (data_) items.push_back({data_, 0, ZMQ_POLLIN, 0});
    for (void* s : servers_) items.push_back({s, 0, ZMQ_POLLIN, 0});
    auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(next_beat - Clock::now()).count();
    zmq_poll(items.data(), static_cast<int>(items.size()), wait_ms < 0 ? 0 : static_cast<long>(wait_ms));
    if (stop_) break;

    if (items[1].revents & ZMQ_POLLIN) {
      uint64_t n;
      if (read(wake_fd_, &n, sizeof(n)) < 0) {
      }
    }
    std::deque<Outgoing> out;
    {
      std::lock_guard<std::mutex> lk(mu_);
      out.swap(queue_);
    }
    for (Outgoing& o : out) {
      if (o.target >= static_cast<int>(servers_.size())) continue;  // SendToServer checked the index
      void* sock = o.target == kToScheduler ? sched_ : o.target == kToReply ? data_ : servers_[o.target];
      // A vanished peer is caught by liveness.
      SendMessage(sock, std::move(o.msg), o.target == kToReply, &auth_);
    }

    // Each socket hears one role only; anything else is rejected unread.
    auto drain = [&](void* sock, bool routed, Role from, bool from_scheduler) {
      for (;;) {
        Message m;
        bool ok = ReceiveMessage(sock, routed, cfg_.max_message_bytes, &auth_, RoleBit(from), &m, &why);
        if (!ok && why.empty()) break;
        if (!ok) {
          rejected_.Note(m.peer, why);
          continue;
        }
        if (from_scheduler) {
          last_from_sched = Clock::now();
          OnSchedulerMessage(std::move(m));
        } else {
          on_data_(std::move(m));
        }
      }
    };
    drain(sched_, false, Role::kScheduler, true);
    if (data_) drain(data_, true, Role::kWorker, false);
    for (void* s : servers_) drain(s, false, Role::kServer, false);

    bool joined, registered;
    {
      std::lock_guard<std::mutex> lk(mu_);
      joined = registered_;
      registered = registered_ && !finalized_ && !exit_;
    }
    // Only once in a run: the scheduler refuses anything but a register
    // without this run's id (Note [PS runs]), and checks liveness only after
    // it has assigned the ranks.
    if (Clock::now() >= next_beat) {
      if (joined) {
        Message beat = MakeMessage(Command::kHeartbeat);
        beat.head.sender = rank_;
        AddressTo(&beat, Role::kScheduler, 0);
        SendMessage(sched_, std::move(beat), false, &auth_);
      }
      next_beat = Clock::now() + std::chrono::milliseconds(beat_ms);
    }
    if (registered && SecondsSince(last_from_sched) > cfg_.timeout_s) {
      Die("lost the scheduler at " + cfg_.SchedulerEndpoint() + ": no message for " +
          std::to_string(static_cast<int>(cfg_.timeout_s)) + " s (WEFT_PS_TIMEOUT); it or its machine has died");
    }
  }
}

}  // namespace ps
}  // namespace weft
