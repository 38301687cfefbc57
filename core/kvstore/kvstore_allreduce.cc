#include "core/kvstore/kvstore_allreduce.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>

#include "core/base/error.h"
#include "core/kvstore/mpi_plugin.h"

namespace weft {
namespace {

int MpiDType(DType t) {
  switch (t) {
    case DType::kFloat32: return WEFT_MPI_F32;
    case DType::kFloat64: return WEFT_MPI_F64;
    case DType::kInt32: return WEFT_MPI_I32;
    case DType::kInt64: return WEFT_MPI_I64;
    case DType::kUint8: return WEFT_MPI_U8;
    default: return -1;
  }
}

// A positive number from the environment, or fallback; a bad value is an error naming it.
double EnvPositive(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  double x = std::strtod(v, &end);
  WEFT_CHECK(end != v && *end == '\0' && x > 0, kInvalidArgument)
      << "kvstore 'allreduce': " << name << "=" << v << " is not a positive number";
  return x;
}

int ExpectedWorkers() {
  for (const char* name : {"WEFT_NUM_WORKER", "DMLC_NUM_WORKER"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return std::atoi(v);
  }
  return -1;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// One lane for every allreduce store of the process: they share one MPI
// communicator, so their collectives must not interleave either. Lives as
// long as the process (a store may be made again after another is freed).
VarHandle SharedLane() {
  static VarHandle lane = [] {
    VarHandle v = Engine::Get()->NewVar();
    Engine::Get()->KeepValidOnFailure(v);
    return v;
  }();
  return lane;
}

}  // namespace

AllreduceKVStore::AllreduceKVStore(const std::string& type) : KVStore(type) {
  bucket_bytes_ = static_cast<size_t>(EnvPositive("WEFT_ALLREDUCE_BUCKET_BYTES", 4 << 20));
  timeout_s_ = EnvPositive("WEFT_ALLREDUCE_TIMEOUT", 300);
  mpi_ = &MpiPlugin();
  char err[512] = "";
  WEFT_CHECK(mpi_->init(&rank_, &size_, err, sizeof err) == 0, kInvalidArgument) << "kvstore 'allreduce': " << err;
  // Every rank's expected world size (the launcher's WEFT_NUM_WORKER), so a
  // rank started for another job shape refuses to start on every rank.
  int32_t mine = ExpectedWorkers();
  std::vector<int32_t> all(static_cast<size_t>(size_));
  if (mpi_->allgather(&mine, all.data(), sizeof mine, timeout_s_, err, sizeof err) != 0) Fail("allgather", err);
  for (int r = 0; r < size_; ++r) {
    WEFT_CHECK(all[r] < 0 || all[r] == size_, kInvalidArgument)
        << "kvstore 'allreduce': rank " << r << " was started for " << all[r]
        << " workers (WEFT_NUM_WORKER) but the MPI job has " << size_ << " ranks";
  }
  lane_ = SharedLane();
}

AllreduceKVStore::~AllreduceKVStore() { Finalize(); }

void AllreduceKVStore::Fail(const char* what, const char* err) {
  // The ranks no longer issue the same collectives: nobody may go on.
  std::string reason = std::string(what) + " failed: " + err;
  mpi_->abort_job(reason.c_str(), 4);
  std::abort();
}

AllreduceKVStore::Entry& AllreduceKVStore::Find(const std::string& key, const char* what) {
  auto it = entries_.find(key);
  WEFT_CHECK(it != entries_.end(), kNotFound) << "kvstore " << what << ": key '" << key
                                              << "' has not been initialised (call init first)";
  return it->second;
}

void AllreduceKVStore::RunOnLaneAndWait(const std::function<void()>& fn, const char* name) {
  std::exception_ptr failure;
  Engine::Get()->Push(
      [&](RunContext) {
        try {
          fn();
        } catch (...) {
          failure = std::current_exception();
        }
      },
      Context::CPU(0), {}, {lane_}, FnProperty::kAsync, 0, name);
  Engine::Get()->WaitForVar(lane_);
  if (failure) std::rethrow_exception(failure);
}

void AllreduceKVStore::CheckSameModel(const std::string& description) {
  // Rank 0's description goes to every rank; each compares its own, then all
  // learn whether anyone differs, so every rank refuses together.
  RunOnLaneAndWait(
      [&] {
        char err[512] = "";
        int64_t len = static_cast<int64_t>(description.size());
        if (mpi_->bcast(&len, sizeof len, 0, timeout_s_, err, sizeof err) != 0) Fail("broadcast", err);
        std::string root(static_cast<size_t>(len), '\0');
        if (rank_ == 0) root = description;
        if (len > 0 && mpi_->bcast(&root[0], len, 0, timeout_s_, err, sizeof err) != 0) Fail("broadcast", err);
        int32_t same = root == description ? 1 : 0;
        std::vector<int32_t> all(static_cast<size_t>(size_));
        if (mpi_->allgather(&same, all.data(), sizeof same, timeout_s_, err, sizeof err) != 0) Fail("allgather", err);
        if (!same) {
          std::vector<std::string> a = Lines(root), b = Lines(description);
          std::ostringstream why;
          size_t i = 0;
          while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
          why << "kvstore 'allreduce' init: rank " << rank_ << "'s model differs from rank 0's: ";
          if (i < a.size() && i < b.size()) {
            why << "parameter " << i << " is " << b[i] << " on rank " << rank_ << " but " << a[i] << " on rank 0";
          } else if (i < a.size()) {
            why << "rank 0 has " << a.size() << " parameters, rank " << rank_ << " only " << b.size() << " (next on rank 0: "
                << a[i] << ")";
          } else {
            why << "rank " << rank_ << " has " << b.size() << " parameters, rank 0 only " << a.size()
                << " (next on rank " << rank_ << ": " << b[i] << ")";
          }
          WEFT_THROW(kInvalidArgument) << why.str();
        }
        for (int r = 0; r < size_; ++r) {
          WEFT_CHECK(all[r], kInvalidArgument) << "kvstore 'allreduce' init: rank " << r
                                               << "'s model (keys, shapes, dtypes) differs from rank 0's; "
                                                  "rank " << r << "'s error names the difference";
        }
      },
      "AllreduceCheckModel");
}

void AllreduceKVStore::Init(const std::vector<std::string>& keys, const std::vector<NDArray>& values) {
  std::vector<KeyGroup> groups = GroupByKey(keys, values, "init");
  std::ostringstream description;
  for (const KeyGroup& g : groups) {
    WEFT_CHECK(entries_.count(g.key) == 0, kInvalidArgument) << "kvstore init: key '" << g.key
                                                              << "' is already initialised";
    const NDArray& v = g.arrays[0];
    WEFT_CHECK(MpiDType(v.dtype()) >= 0, kDType)
        << "kvstore 'allreduce' init: key '" << g.key << "' is " << DTypeName(v.dtype())
        << "; the allreduce store sums float32, float64, int32, int64 and uint8 arrays";
    description << "key '" << g.key << "' " << DTypeName(v.dtype()) << " " << v.shape().ToString() << "\n";
  }
  CheckSameModel(description.str());
  std::vector<NDArray> stored;
  for (const KeyGroup& g : groups) {
    const NDArray& v = g.arrays[0];
    Entry e;
    e.stored = NDArray(v.shape(), Context::CPU(0), v.dtype());
    NDArray::Copy(v, e.stored);
    e.merged = NDArray(v.shape(), Context::CPU(0), v.dtype());
    stored.push_back(e.stored);
    entries_.emplace(g.key, std::move(e));
  }
  // Rank 0's initial values everywhere (the broadcast of initial parameters).
  std::vector<VarHandle> writes{lane_};
  for (const NDArray& s : stored) writes.push_back(s.var());
  Engine::Get()->Push(
      [this, stored](RunContext) {
        char err[512] = "";
        for (const NDArray& s : stored) {
          if (mpi_->bcast(s.data(), static_cast<int64_t>(s.Bytes()), 0, timeout_s_, err, sizeof err) != 0)
            Fail("broadcast", err);
        }
      },
      Context::CPU(0), {}, writes, FnProperty::kAsync, 0, "AllreduceBroadcast");
}

void AllreduceKVStore::PushPieces(const Move& m, int priority) {
  const size_t esize = DTypeSize(m.dst.dtype());
  const int64_t per_piece = std::max<int64_t>(1, static_cast<int64_t>(bucket_bytes_ / esize));
  const int64_t n = m.dst.Size();
  const bool in_place = m.src.SharesChunk(m.dst) && m.src.byte_offset() == m.dst.byte_offset();
  std::vector<VarHandle> reads;
  if (!in_place) reads.push_back(m.src.var());
  for (int64_t begin = 0; begin < n; begin += per_piece) {
    int64_t count = std::min(per_piece, n - begin);
    Move mv = m;
    Engine::Get()->Push(
        [this, mv, begin, count, esize, in_place](RunContext) {
          char* dst = static_cast<char*>(mv.dst.data()) + begin * esize;
          if (!in_place) std::memcpy(dst, static_cast<const char*>(mv.src.data()) + begin * esize, count * esize);
          char err[512] = "";
          if (mpi_->allreduce_sum(dst, count, MpiDType(mv.dst.dtype()), timeout_s_, err, sizeof err) != 0)
            Fail("allreduce", err);
        },
        Context::CPU(0), reads, {mv.dst.var(), lane_}, FnProperty::kAsync, priority, "AllreduceKey");
  }
}

void AllreduceKVStore::PushBucket(const std::vector<Move>& bucket, int priority) {
  if (bucket.empty()) return;
  if (bucket.size() == 1) {
    PushPieces(bucket[0], priority);
    return;
  }
  std::vector<VarHandle> reads, writes{lane_};
  for (const Move& m : bucket) {
    if (!m.src.SharesChunk(m.dst)) reads.push_back(m.src.var());
    writes.push_back(m.dst.var());
  }
  Engine::Get()->Push(
      [this, bucket](RunContext) {
        size_t total = 0;
        for (const Move& m : bucket) total += m.dst.Bytes();
        if (scratch_.size() < total) scratch_.resize(total);
        size_t at = 0;
        for (const Move& m : bucket) {
          std::memcpy(scratch_.data() + at, m.src.data(), m.src.Bytes());
          at += m.src.Bytes();
        }
        const DType t = bucket[0].dst.dtype();
        char err[512] = "";
        if (mpi_->allreduce_sum(scratch_.data(), static_cast<int64_t>(total / DTypeSize(t)), MpiDType(t), timeout_s_,
                                err, sizeof err) != 0)
          Fail("allreduce", err);
        at = 0;
        for (const Move& m : bucket) {
          std::memcpy(m.dst.data(), scratch_.data() + at, m.dst.Bytes());
          at += m.dst.Bytes();
        }
      },
      Context::CPU(0), reads, writes, FnProperty::kAsync, priority, "AllreduceBucket");
}

void AllreduceKVStore::ScheduleReductions(const std::vector<Move>& moves, int priority) {
  std::vector<Move> bucket;
  size_t bytes = 0;
  for (auto it = moves.rbegin(); it != moves.rend(); ++it) {
    const size_t b = it->dst.Bytes();
    if (b >= bucket_bytes_) {
      PushBucket(bucket, priority);
      bucket.clear();
      bytes = 0;
      PushPieces(*it, priority);
      continue;
    }
    if (!bucket.empty() && (bucket[0].dst.dtype() != it->dst.dtype() || bytes + b > bucket_bytes_)) {
      PushBucket(bucket, priority);
      bucket.clear();
      bytes = 0;
    }
    bucket.push_back(*it);
    bytes += b;
  }
  PushBucket(bucket, priority);
}

void AllreduceKVStore::Push(const std::vector<std::string>& keys, const std::vector<NDArray>& values, int priority) {
  std::vector<KeyGroup> groups = GroupByKey(keys, values, "push");
  for (const KeyGroup& g : groups) {
    Entry& e = Find(g.key, "push");
    for (const NDArray& v : g.arrays) CheckMatchesInit(g.key, v, e.stored.shape(), e.stored.dtype(), "push");
  }
  std::vector<Move> moves;
  for (const KeyGroup& g : groups) {
    Entry& e = entries_.at(g.key);
    const NDArray& target = updater_ ? e.merged : e.stored;
    if (g.arrays.size() > 1 || !g.arrays[0].ctx().is_cpu()) {
      ReduceInto(g.arrays, target);  // level 1: this machine's devices first
      moves.push_back(Move{target, target});
    } else {
      moves.push_back(Move{g.arrays[0], target});
    }
  }
  ScheduleReductions(moves, priority);
  if (updater_) {
    for (const KeyGroup& g : groups) {
      Entry& e = entries_.at(g.key);
      updater_(g.key, e.merged, e.stored);
    }
  }
}

void AllreduceKVStore::Pull(const std::vector<std::string>& keys, const std::vector<NDArray>& outs, int) {
  std::vector<KeyGroup> groups = GroupByKey(keys, outs, "pull");
  for (const KeyGroup& g : groups) {
    Entry& e = Find(g.key, "pull");
    for (const NDArray& o : g.arrays) CheckMatchesInit(g.key, o, e.stored.shape(), e.stored.dtype(), "pull");
  }
  for (const KeyGroup& g : groups) {
    const Entry& e = entries_.at(g.key);
    for (const NDArray& o : g.arrays) NDArray::Copy(e.stored, o);
  }
}

void AllreduceKVStore::PushPull(const std::vector<std::string>& value_keys, const std::vector<NDArray>& values,
                                const std::vector<std::string>& out_keys, const std::vector<NDArray>& outs,
                                int priority) {
  // The common case (Trainer, one CPU copy per key, no updater): reduce each
  // gradient straight into its out (in place when out is the gradient) and
  // keep the sum for later pulls; otherwise push, then pull.
  bool direct = !updater_ && value_keys == out_keys;
  std::vector<KeyGroup> vg = GroupByKey(value_keys, values, "pushpull");
  std::vector<KeyGroup> og = GroupByKey(out_keys, outs, "pushpull");
  for (size_t i = 0; direct && i < vg.size(); ++i) {
    direct = vg[i].arrays.size() == 1 && og[i].arrays.size() == 1 && vg[i].arrays[0].ctx().is_cpu() &&
             og[i].arrays[0].ctx().is_cpu();
  }
  if (!direct) {
    Push(value_keys, values, priority);
    Pull(out_keys, outs, priority);
    return;
  }
  std::vector<Move> moves;
  for (size_t i = 0; i < vg.size(); ++i) {
    Entry& e = Find(vg[i].key, "pushpull");
    CheckMatchesInit(vg[i].key, vg[i].arrays[0], e.stored.shape(), e.stored.dtype(), "pushpull");
    CheckMatchesInit(vg[i].key, og[i].arrays[0], e.stored.shape(), e.stored.dtype(), "pushpull");
  }
  for (size_t i = 0; i < vg.size(); ++i) moves.push_back(Move{vg[i].arrays[0], og[i].arrays[0]});
  ScheduleReductions(moves, priority);
  for (size_t i = 0; i < vg.size(); ++i) NDArray::Copy(og[i].arrays[0], entries_.at(vg[i].key).stored);
}

void AllreduceKVStore::Barrier() {
  RunOnLaneAndWait(
      [this] {
        char err[512] = "";
        if (mpi_->barrier(timeout_s_, err, sizeof err) != 0) Fail("barrier", err);
      },
      "AllreduceBarrier");
}

void AllreduceKVStore::Finalize() {
  // MPI itself stays up until the process exits (the plugin finalizes it
  // then): MPI cannot be initialised twice, and a new store may follow.
  try {
    Engine::Get()->WaitForVar(lane_);
  } catch (...) {
  }
}

void AllreduceKVStore::Abort(const std::string& reason) { mpi_->abort_job(reason.c_str(), 1); }

}  // namespace weft
