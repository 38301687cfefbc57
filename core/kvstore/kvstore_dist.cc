#include "core/kvstore/kvstore_dist.h"

#include <cstring>

#include "core/base/error.h"
#include "core/engine/engine.h"
#include "core/kvstore/ps_config.h"
#include "core/kvstore/van.h"

namespace weft {
namespace {

// FNV-1a: stable across processes and builds (std::hash is not), so every
// worker shards a key to the same server.
uint64_t StableHash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

DistKVStore::DistKVStore(const std::string& type) : KVStore(type) {
  ps::Config cfg = ps::Config::FromEnv();
  WEFT_CHECK(cfg.role == ps::Role::kWorker, kInvalidArgument)
      << "kvstore '" << type << "': this process has WEFT_ROLE=" << ps::RoleName(cfg.role)
      << "; only workers create a store (servers and the scheduler run weft.kvstore.server)";
  sync_ = type != "dist_async";
  van_ = std::make_unique<ps::Van>(cfg, [this](ps::Message&& m) { OnReply(std::move(m)); });
  for (int i = 0; i < kCommLanes; ++i) lane_vars_.push_back(Engine::Get()->NewVar());
}

DistKVStore::~DistKVStore() {
  try {
    Finalize();
  } catch (...) {
  }
  for (auto& kv : pending_) {
    if (kv.second->detached) delete kv.second;
  }
  for (VarHandle v : lane_vars_) Engine::Get()->DeleteVar([] {}, Context::CPU(0), v);
}

int DistKVStore::rank() const { return van_ ? van_->rank() : 0; }
int DistKVStore::num_workers() const { return van_ ? van_->config().num_workers : 1; }

DistKVStore::KeyInfo& DistKVStore::Find(const std::string& key, const char* what) {
  WEFT_CHECK(van_ != nullptr, kInvalidArgument) << "kvstore " << what << ": the store has been finalized";
  auto it = keys_.find(key);
  WEFT_CHECK(it != keys_.end(), kNotFound) << "kvstore " << what << ": key '" << key
                                           << "' has not been initialised (call init first)";
  return it->second;
}

void DistKVStore::OnReply(ps::Message&& m) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = pending_.find(m.head.request_id);
  if (it == pending_.end()) return;  // not ours (or already failed)
  Pending* p = it->second;
  pending_.erase(it);
  if (p->detached) {
    if (m.command() == ps::Command::kError && !push_errors_.count(p->key)) push_errors_[p->key] = m.payload.str();
    delete p;
    return;
  }
  if (m.command() == ps::Command::kError) {
    p->error = m.payload.str();
  } else if (m.command() == ps::Command::kPullReply) {
    if (m.payload.size() != p->dst_bytes) {
      p->error = "pull reply of " + std::to_string(m.payload.size()) + " bytes, expected " +
                 std::to_string(p->dst_bytes);
    } else if (p->dst_bytes) {
      std::memcpy(p->dst, m.payload.data(), p->dst_bytes);
    }
  }
  p->done = true;
  cv_.notify_all();
}

void DistKVStore::Transfer(ps::Command c, const std::string& key, const KeyInfo& info, char* data) {
  Transfer(c, {Job{key, &info, data}});
}

void DistKVStore::Transfer(ps::Command c, const std::vector<Job>& jobs) {
  size_t total_parts = 0;
  for (const Job& j : jobs) total_parts += j.info->parts.size();
  std::vector<Pending> pend(total_parts);
  std::vector<const std::string*> part_key(total_parts);
  size_t n = 0;
  for (const Job& job : jobs) {
    const KeyInfo& info = *job.info;
    const size_t esize = DTypeSize(info.dtype);
    for (const Part& part : info.parts) {
      ps::Message m;
      m.head.command = static_cast<uint16_t>(c);
      m.head.request_id = next_id_++;
      m.head.arg = static_cast<int32_t>(info.dtype);
      m.head.offset = static_cast<uint64_t>(part.begin);
      m.head.total = static_cast<uint64_t>(info.shape.Size());
      m.head.flags = sync_ ? ps::kFlagSync : 0;
      m.key = job.key;
      char* bytes = job.data + part.begin * esize;
      size_t nbytes = static_cast<size_t>(part.end - part.begin) * esize;
      if (c == ps::Command::kPull) {
        pend[n].dst = bytes;
        pend[n].dst_bytes = nbytes;
      } else if (c == ps::Command::kSetOptimizer) {
        m.payload = ps::Frame(job.data, std::strlen(job.data));
      } else {
        m.payload = ps::Frame::Borrow(bytes, nbytes);  // we wait for the reply, so the bytes stay valid
      }
      part_key[n] = &job.key;
      {
        std::lock_guard<std::mutex> lk(mu_);
        pending_[m.head.request_id] = &pend[n];
      }
      van_->SendToServer(part.server, std::move(m));
      ++n;
    }
  }
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] {
    for (const Pending& p : pend)
      if (!p.done) return false;
    return true;
  });
  for (size_t i = 0; i < pend.size(); ++i) {
    WEFT_CHECK(pend[i].error.empty(), kInvalidArgument) << "kvstore " << ps::CommandName(c) << " of key '"
                                                        << *part_key[i] << "': server replied: " << pend[i].error;
  }
}

void DistKVStore::SendPush(const std::string& key, const KeyInfo& info, const char* data) {
  RaiseDeferredError(key);
  const size_t esize = DTypeSize(info.dtype);
  for (const Part& part : info.parts) {
    ps::Message m;
    m.head.command = static_cast<uint16_t>(ps::Command::kPush);
    m.head.request_id = next_id_++;
    m.head.arg = static_cast<int32_t>(info.dtype);
    m.head.offset = static_cast<uint64_t>(part.begin);
    m.head.total = static_cast<uint64_t>(info.shape.Size());
    m.head.flags = sync_ ? ps::kFlagSync : 0;
    m.key = key;
    m.payload = ps::Frame(data + part.begin * esize, static_cast<size_t>(part.end - part.begin) * esize);
    auto* p = new Pending();
    p->detached = true;
    p->key = key;
    {
      std::lock_guard<std::mutex> lk(mu_);
      pending_[m.head.request_id] = p;
    }
    van_->SendToServer(part.server, std::move(m));
  }
}

void DistKVStore::RaiseDeferredError(const std::string& key) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = push_errors_.find(key);
  if (it == push_errors_.end()) return;
  std::string why = it->second;
  push_errors_.erase(it);
  WEFT_THROW(kInvalidArgument) << "kvstore push of key '" << key << "': server replied: " << why;
}

void DistKVStore::Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) {
  std::vector<KeyGroup> groups = GroupByKey(keys, values, "init");
  for (const KeyGroup& g : groups) {
    WEFT_CHECK(keys_.count(g.key) == 0, kInvalidArgument) << "kvstore init: key '" << g.key
                                                           << "' is already initialised";
    WEFT_CHECK(g.key.size() <= ps::kMaxKeyBytes, kInvalidArgument) << "kvstore init: key longer than "
                                                                    << ps::kMaxKeyBytes << " bytes";
  }
  const ps::Config& cfg = van_->config();
  const int servers = van_->num_servers();
  for (const KeyGroup& g : groups) {
    const NDArray& v = g.arrays[0];
    KeyInfo info;
    info.shape = v.shape();
    info.dtype = v.dtype();
    int64_t n = v.Size();
    uint64_t h = StableHash(g.key);
    if (n >= cfg.bigarray_bound && servers > 1) {
      for (int s = 0; s < servers; ++s) info.parts.push_back(Part{s, n * s / servers, n * (s + 1) / servers});
    } else {
      info.parts.push_back(Part{static_cast<int>(h % static_cast<uint64_t>(servers)), 0, n});
    }
    info.lane = static_cast<int>((h >> 32) % kCommLanes);
    info.buffer = NDArray(v.shape(), Context::CPU(0), v.dtype());
    KeyInfo& stored = keys_.emplace(g.key, std::move(info)).first->second;
    if (rank() == 0) {
      std::vector<char> host(v.Bytes());
      v.SyncCopyToHost(host.data(), host.size());
      Transfer(ps::Command::kInit, g.key, stored, host.data());
    }
  }
  van_->Barrier();  // every worker's first pull sees rank 0's values
}

void DistKVStore::Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values, int priority) {
  std::vector<KeyGroup> groups = GroupByKey(keys, values, "push");
  for (const KeyGroup& g : groups) {
    KeyInfo& info = Find(g.key, "push");
    for (const NDArray& v : g.arrays) CheckMatchesInit(g.key, v, info.shape, info.dtype, "push");
  }
  for (const KeyGroup& g : groups) {
    KeyInfo* info = &keys_.at(g.key);
    NDArray src = g.arrays[0];
    if (g.arrays.size() > 1 || !src.ctx().is_cpu()) {
      ReduceInto(g.arrays, info->buffer);  // level 1
      src = info->buffer;
    }
    std::vector<VarHandle> reads;
    if (!src.SharesChunk(info->buffer)) reads.push_back(src.var());
    std::string key = g.key;
    Engine::Get()->Push(
        [this, key, info, src](RunContext) { SendPush(key, *info, static_cast<const char*>(src.data())); },
        Context::CPU(info->lane), reads, {info->buffer.var(), lane_vars_[info->lane]}, FnProperty::kAsync, priority,
        "KVStorePush");
  }
}

void DistKVStore::Pull(const std::vector<std::string>& keys, const std::vector<NDArray>& outs, int priority) {
  std::vector<KeyGroup> groups = GroupByKey(keys, outs, "pull");
  for (const KeyGroup& g : groups) {
    KeyInfo& info = Find(g.key, "pull");
    for (const NDArray& o : g.arrays) CheckMatchesInit(g.key, o, info.shape, info.dtype, "pull");
  }
  // One engine op per lane for all of this call's keys in it (Transfer of many keys).
  struct LaneBatch {
    std::vector<std::string> keys;
    std::vector<const KeyInfo*> infos;
    std::vector<NDArray> dsts;
    std::vector<VarHandle> writes;
  };
  std::map<int, LaneBatch> lanes;
  std::vector<std::pair<const KeyInfo*, const KeyGroup*>> copies;
  for (const KeyGroup& g : groups) {
    const KeyInfo* info = &keys_.at(g.key);
    bool direct = g.arrays.size() == 1 && g.arrays[0].ctx().is_cpu();
    NDArray dst = direct ? g.arrays[0] : info->buffer;
    LaneBatch& b = lanes[info->lane];
    if (b.writes.empty()) b.writes.push_back(lane_vars_[info->lane]);
    b.keys.push_back(g.key);
    b.infos.push_back(info);
    b.writes.push_back(info->buffer.var());
    if (!dst.SharesChunk(info->buffer)) b.writes.push_back(dst.var());
    b.dsts.push_back(dst);
    if (!direct) copies.emplace_back(info, &g);
  }
  for (auto& kv : lanes) {
    LaneBatch b = std::move(kv.second);
    std::vector<VarHandle> writes = b.writes;
    Engine::Get()->Push(
        [this, b](RunContext) {
          std::vector<Job> jobs;
          for (size_t i = 0; i < b.keys.size(); ++i) {
            RaiseDeferredError(b.keys[i]);
            jobs.push_back(Job{b.keys[i], b.infos[i], static_cast<char*>(b.dsts[i].data())});
          }
          Transfer(ps::Command::kPull, jobs);
        },
        Context::CPU(kv.first), {}, writes, FnProperty::kAsync, priority, "KVStorePull");
  }
  for (auto& c : copies) {
    for (const NDArray& o : c.second->arrays) NDArray::Copy(c.first->buffer, o);
  }
}

void DistKVStore::WaitPendingOps() {
  for (VarHandle v : lane_vars_) Engine::Get()->WaitForVar(v);
}

void DistKVStore::SetOptimizer(const std::string& spec) {
  WEFT_CHECK(van_ != nullptr, kInvalidArgument) << "kvstore set_optimizer: the store has been finalized";
  // Only rank 0 sends (every worker calls this); its later pushes travel on
  // the same connections, so every server has the optimizer before it can
  // complete a sync round. Earlier pushes must not see the new one.
  WaitPendingOps();
  if (rank() == 0) SendOptimizer(spec);
  // dist_async applies a push at once: no worker may push before every server
  // has the optimizer (dist_sync needs no wait: see above).
  if (!sync_) van_->Barrier();
}

void DistKVStore::SendOptimizer(const std::string& spec) {
  KeyInfo info;
  info.dtype = DType::kUint8;
  info.shape = Shape{1};
  std::string text = spec;
  for (int s = 0; s < van_->num_servers(); ++s) {
    info.parts = {Part{s, 0, 1}};
    Transfer(ps::Command::kSetOptimizer, "", info, text.data());
  }
}

void DistKVStore::Barrier() {
  WEFT_CHECK(van_ != nullptr, kInvalidArgument) << "kvstore barrier: the store has been finalized";
  WaitPendingOps();  // what this worker pushed before the barrier has reached the servers
  van_->Barrier();
}

void DistKVStore::Finalize() {
  if (!van_) return;
  try {
    WaitPendingOps();
  } catch (...) {
    // a failed op was reported to whoever waited on it; leaving must still work
  }
  van_->Finalize();
  van_.reset();
}

}  // namespace weft
