#include "core/kvstore/server.h"

#include <cstring>
#include <thread>

#include "core/base/error.h"
#include "core/kvstore/van.h"
#include "core/ndarray/imperative.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace ps {
namespace {

// Note [Pushed payloads are unaligned]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// src is a received ZeroMQ frame, and libzmq hands a frame out where it lies
// in its receive batch, at any byte offset (seen at ...26f and ...273 under
// UBSan: the dist KVStore tests' servers died there). Reading it through a
// T* is undefined for a misaligned address (and lets the compiler assume an
// alignment the vectorised loop does not have), so each element is read with
// memcpy, which compiles to one unaligned load. dst is the merged array's
// pooled storage, 64-byte aligned.
template <typename T>
void AddTo(void* dst, const void* src, size_t n) {
  T* d = static_cast<T*>(dst);
  const unsigned char* s = static_cast<const unsigned char*>(src);
  for (size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, s + i * sizeof(T), sizeof(T));
    d[i] += v;
  }
}

// dst += src on the server's own thread (no engine round trip per push);
// false for dtypes without a plain C++ sum (float16, bfloat16, bool).
bool AddOnHost(DType t, void* dst, const void* src, size_t bytes) {
  switch (t) {
    case DType::kFloat32: AddTo<float>(dst, src, bytes / 4); return true;
    case DType::kFloat64: AddTo<double>(dst, src, bytes / 8); return true;
    case DType::kInt32: AddTo<int32_t>(dst, src, bytes / 4); return true;
    case DType::kInt64: AddTo<int64_t>(dst, src, bytes / 8); return true;
    default: return false;
  }
}

}  // namespace

void ServerHandler::Ack(const Message& req, Command c, Frame payload) {
  Message rep;
  rep.head.command = static_cast<uint16_t>(c);
  rep.head.request_id = req.head.request_id;
  rep.head.arg = req.head.arg;
  rep.head.offset = req.head.offset;
  rep.head.total = req.head.total;
  rep.key = req.key;
  rep.identity = req.identity;
  AddressTo(&rep, Role::kWorker, req.head.sender);
  rep.payload = std::move(payload);
  reply_(std::move(rep));
}

ServerHandler::Entry& ServerHandler::Find(const Message& req) {
  auto it = entries_.find(req.key);
  WEFT_CHECK(it != entries_.end(), kNotFound) << "key '" << req.key << "' has not been initialised on this server";
  Entry& e = it->second;
  WEFT_CHECK(req.head.offset == e.offset && req.head.total == e.total, kShape)
      << "key '" << req.key << "': elements [" << req.head.offset << ", +" << req.head.total
      << ") do not match the range given at init [" << e.offset << ", +" << e.total << ")";
  WEFT_CHECK(req.head.arg == static_cast<int32_t>(e.stored.dtype()), kDType)
      << "key '" << req.key << "': dtype flag " << req.head.arg << " differs from the init dtype "
      << DTypeName(e.stored.dtype());
  if (req.command() == Command::kPush) {
    WEFT_CHECK(req.payload.size() == e.stored.Bytes(), kShape)
        << "key '" << req.key << "': pushed " << req.payload.size() << " bytes but it was initialised with "
        << e.stored.Bytes() << " bytes (" << e.stored.Size() << " elements)";
  }
  return e;
}

void ServerHandler::HandleInit(Message&& req) {
  DType t = DTypeFromFlag(req.head.arg);
  size_t esize = DTypeSize(t);
  WEFT_CHECK(req.payload.size() % esize == 0, kShape)
      << "key '" << req.key << "': init payload of " << req.payload.size() << " bytes is not a whole number of "
      << DTypeName(t);
  WEFT_CHECK(entries_.count(req.key) == 0, kInvalidArgument) << "key '" << req.key << "' is already initialised";
  Entry e;
  Shape shape{static_cast<int64_t>(req.payload.size() / esize)};
  e.stored = NDArray(shape, Context::CPU(0), t);
  e.stored.SyncCopyFromHost(req.payload.data(), req.payload.size());
  e.merged = NDArray(shape, Context::CPU(0), t);
  e.recv = NDArray(shape, Context::CPU(0), t);
  e.offset = req.head.offset;
  e.total = req.head.total;
  entries_.emplace(req.key, std::move(e));
  Ack(req);
}

void ServerHandler::HandlePush(Message&& req) {
  Entry& e = Find(req);
  bool sync = (req.head.flags & kFlagSync) != 0;
  if (!sync) {
    e.reply_valid = false;
    if (optimizer_) {
      std::memcpy(e.recv.data(), req.payload.data(), req.payload.size());
      optimizer_->Update(req.key, e.stored, e.recv);
    } else {
      std::memcpy(e.stored.data(), req.payload.data(), req.payload.size());
    }
    e.stored.WaitToRead();  // the update has read recv: the next push may overwrite it
    Ack(req);
    return;
  }
  const int worker = req.head.sender;
  WEFT_CHECK(worker >= 0 && worker < num_workers_, kInvalidArgument)
      << "key '" << req.key << "': push from unknown worker rank " << worker;
  if (e.needs.size() != static_cast<size_t>(num_workers_)) e.needs.assign(num_workers_, 0);
  WEFT_CHECK(e.needs[worker] <= e.rounds, kInvalidArgument)
      << "key '" << req.key << "': worker " << worker << " pushed twice in one round";
  // Note: no engine op uses merged between rounds (each round ends waiting
  // for the update), so the server thread may write it directly.
  if (e.pushes == 0) {
    std::memcpy(e.merged.data(), req.payload.data(), req.payload.size());
  } else if (!AddOnHost(e.merged.dtype(), e.merged.data(), req.payload.data(), req.payload.size())) {
    static const OpDef& add = OpRegistry::Get()->FindOrThrow("elemwise_add");
    e.recv.SyncCopyFromHost(req.payload.data(), req.payload.size());
    std::vector<NDArray> out{e.merged};
    Invoke(add, {}, {e.merged, e.recv}, &out);
    e.merged.WaitToRead();
  }
  ++e.pushes;
  e.needs[worker] = e.rounds + 1;
  Ack(req);
  if (e.pushes < num_workers_) return;
  e.pushes = 0;
  std::string error;
  try {
    e.reply_valid = false;
    if (optimizer_) {
      optimizer_->Update(req.key, e.stored, e.merged);
    } else {
      // The sum becomes the value: swap rather than copy (merged is
      // overwritten by the next round's first push).
      std::swap(e.stored, e.merged);
    }
    e.stored.WaitToRead();
  } catch (const std::exception& ex) {
    error = ex.what();
  }
  ++e.rounds;
  std::vector<Message> pulls;
  pulls.swap(e.pulls);
  for (Message& p : pulls) {
    if (error.empty()) {
      ReplyPull(e, p);
    } else {
      Ack(p, Command::kError, Frame("update of key '" + p.key + "' failed: " + error));
    }
  }
}

void ServerHandler::ReplyPull(Entry& e, const Message& req) {
  if (!e.reply_valid) {
    e.stored.WaitToRead();
    e.reply = Frame(e.stored.data(), e.stored.Bytes());
    e.reply_valid = true;
  }
  Ack(req, Command::kPullReply, e.reply.Share());
}

void ServerHandler::HandlePull(Message&& req) {
  Entry& e = Find(req);
  const int worker = req.head.sender;
  if (worker >= 0 && static_cast<size_t>(worker) < e.needs.size() && e.needs[worker] > e.rounds) {
    e.pulls.push_back(std::move(req));  // its push's round is not complete yet
    return;
  }
  ReplyPull(e, req);
}

void ServerHandler::Handle(Message&& req) {
  Message meta;  // what an error reply needs, kept before req is moved
  meta.head = req.head;
  meta.key = req.key;
  meta.identity = req.identity;
  try {
    switch (req.command()) {
      case Command::kInit: HandleInit(std::move(req)); break;
      case Command::kPush: HandlePush(std::move(req)); break;
      case Command::kPull: HandlePull(std::move(req)); break;
      case Command::kSetOptimizer:
        optimizer_ = std::make_unique<ServerOptimizer>(req.payload.str());
        Ack(req);
        break;
      default:
        std::fprintf(stderr, "weft kvstore server: ignoring a '%s' request\n", CommandName(req.command()));
        break;
    }
  } catch (const std::exception& ex) {
    Ack(meta, Command::kError, Frame(std::string(ex.what())));
  }
}

int RunServer(const Config& cfg) {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Message> queue;
  bool done = false;
  Van van(cfg, [&](Message&& m) {
    std::lock_guard<std::mutex> lk(mu);
    queue.push_back(std::move(m));
    cv.notify_one();
  });
  ServerHandler handler(cfg.num_workers, [&](Message&& m) { van.Reply(std::move(m)); });
  std::thread waiter([&] {
    van.WaitForExit();
    std::lock_guard<std::mutex> lk(mu);
    done = true;
    cv.notify_one();
  });
  for (;;) {
    std::unique_lock<std::mutex> lk(mu);
    cv.wait(lk, [&] { return done || !queue.empty(); });
    if (queue.empty()) break;
    Message m = std::move(queue.front());
    queue.pop_front();
    lk.unlock();
    handler.Handle(std::move(m));
  }
  waiter.join();
  return 0;
}

}  // namespace ps
}  // namespace weft
