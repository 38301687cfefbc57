// The profiler's recording and configuration (Note [Profiler recording] in
// profiler.h); the trace file and the aggregate table: profiler_report.cc.
#include "core/engine/profiler.h"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <mutex>
#include <set>
#include <thread>

#include "core/base/error.h"
#include "core/engine/profiler_control.h"
#include "core/engine/profiler_internal.h"
#include "core/storage/memory_hook.h"

namespace weft {
namespace profiler {

std::atomic<int> g_active{0};

namespace {

using internal::Collected;
using internal::Event;
using internal::Kind;
using internal::Record;

constexpr const char* kOperatorCat = "operator";
constexpr const char* kApiCat = "MXNET_C_API";
constexpr const char* kMemoryCat = "Device Storage";
constexpr const char* kEventCat = "event";

// ---- per-thread buffers ---------------------------------------------------

struct Chunk {
  static constexpr int kCapacity = 256;
  Record recs[kCapacity];
  std::atomic<int> count{0};       // published records (release by the writer)
  std::atomic<Chunk*> next{nullptr};
};

struct ThreadBuffer {
  int tid = 0;
  std::string name;
  Chunk* head = nullptr;                  // writer: oldest chunk not freed
  Chunk* tail = nullptr;                  // writer: the chunk appended to
  std::atomic<Chunk*> read_chunk{nullptr};  // reader's position; writer frees before it
  int read_index = 0;                     // reader only
  std::atomic<bool> exited{false};

  ThreadBuffer() {
    head = tail = new Chunk;
    read_chunk.store(head, std::memory_order_relaxed);
  }
  ~ThreadBuffer() {
    while (head != nullptr) {
      Chunk* n = head->next.load(std::memory_order_relaxed);
      delete head;
      head = n;
    }
  }

  // Owner thread only; no lock.
  void Append(Record&& r) {
    Chunk* t = tail;
    int n = t->count.load(std::memory_order_relaxed);
    if (n == Chunk::kCapacity) {
      Chunk* c = new Chunk;
      t->next.store(c, std::memory_order_release);
      tail = t = c;
      n = 0;
      // Chunks the reader has moved past are no longer read by anyone.
      Chunk* stop = read_chunk.load(std::memory_order_acquire);
      while (head != stop) {
        Chunk* next = head->next.load(std::memory_order_acquire);
        delete head;
        head = next;
      }
    }
    t->recs[n] = std::move(r);
    t->count.store(n + 1, std::memory_order_release);
  }

  // Reader, under State::mu.
  template <typename F>
  void Drain(F&& out) {
    Chunk* c = read_chunk.load(std::memory_order_relaxed);
    int i = read_index;
    for (;;) {
      const int n = c->count.load(std::memory_order_acquire);
      for (; i < n; ++i) out(std::move(c->recs[i]));
      if (n < Chunk::kCapacity) break;
      Chunk* next = c->next.load(std::memory_order_acquire);
      if (next == nullptr) break;
      c = next;
      i = 0;
    }
    read_index = i;
    read_chunk.store(c, std::memory_order_release);
  }
};

struct Config {
  bool profile_all = false;
  bool profile_symbolic = true;
  bool profile_imperative = true;
  bool profile_memory = true;
  bool profile_api = true;
  std::string filename = "profile.json";
  bool continuous_dump = true;
  double dump_period = 1.0;
  bool aggregate_stats = false;
};

// Leaked on purpose: worker threads may record while statics are destroyed.
struct State {
  std::mutex mu;
  std::vector<ThreadBuffer*> buffers;  // guarded by mu
  int next_tid = 0;
  Config config;
  bool running = false;
  bool paused = false;
  Collected collected;
  std::set<std::string> interned;  // category names: never freed
  // continuous_dump
  std::thread dumper;
  std::condition_variable dumper_cv;
  bool dumper_stop = false;
};
void InstallForkHandlers();
State& S() {
  static State* s = [] {
    auto* st = new State;
    InstallForkHandlers();
    return st;
  }();
  return *s;
}

// After a fork the child has no dumper thread, and mu may have been held by a
// parent thread that does not exist there: the child starts stopped, with a
// fresh mutex and an empty dumper handle. (Holding mu across fork instead
// could deadlock with the engine's own fork handler, which waits for ops
// that may be recording.)
void InstallForkHandlers() {
  pthread_atfork(nullptr, nullptr, [] {
    State& s = S();
    new (&s.mu) std::mutex();
    new (&s.dumper) std::thread();
    new (&s.dumper_cv) std::condition_variable();
    s.running = false;
    g_active.store(0, std::memory_order_relaxed);
    StorageMemoryHookSlot().store(nullptr, std::memory_order_relaxed);
  });
}

struct BufferHolder {
  ThreadBuffer* buf = nullptr;
  ~BufferHolder() {
    if (buf != nullptr) buf->exited.store(true, std::memory_order_release);
  }
};
thread_local BufferHolder tl_buffer;
thread_local bool tl_symbolic = false;
thread_local std::string tl_scope;
thread_local int64_t tl_bytes_allocated = 0;

ThreadBuffer* MyBuffer() {
  if (tl_buffer.buf != nullptr) return tl_buffer.buf;
  auto* b = new ThreadBuffer;
#if defined(__linux__)
  char name[32] = {0};
  if (pthread_getname_np(pthread_self(), name, sizeof(name)) == 0) b->name = name;
#endif
  {
    std::lock_guard<std::mutex> lk(S().mu);
    b->tid = S().next_tid++;
    S().buffers.push_back(b);
    S().collected.threads.push_back({b->tid, b->name});
  }
  tl_buffer.buf = b;
  return b;
}

void Append(Record&& r) noexcept {
  try {
    MyBuffer()->Append(std::move(r));
  } catch (...) {
    // Out of memory while profiling: the event is lost, the program goes on.
  }
}

// Moves every published record into the collections (mu held).
void DrainAll(State& s) {
  auto& bufs = s.buffers;
  for (size_t i = 0; i < bufs.size();) {
    ThreadBuffer* b = bufs[i];
    const bool exited = b->exited.load(std::memory_order_acquire);
    b->Drain([&](Record&& r) {
      Event e{std::move(r), b->tid};
      if (s.config.aggregate_stats) s.collected.aggregate.push_back(e);
      s.collected.trace.push_back(std::move(e));
    });
    if (exited) {  // its thread is gone: nothing more will come
      delete b;
      bufs.erase(bufs.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
}

void OnStorage(Context ctx, int64_t bytes, int64_t in_use) {
  if ((Active() & kMemory) == 0) return;
  if (bytes > 0) tl_bytes_allocated += bytes;
  Record r;
  r.kind = Kind::kCounter;
  r.name = "Memory: " + internal::DeviceName(static_cast<int>(ctx.dev_type), ctx.dev_id);
  r.cat = kMemoryCat;
  r.dev_type = static_cast<int>(ctx.dev_type);
  r.dev_id = ctx.dev_id;
  r.start_ns = NowNs();
  r.value = in_use;
  Append(std::move(r));
}

// Recomputes g_active from the configuration and the state (mu held).
void Publish(State& s) {
  int a = 0;
  if (s.running && !s.paused) {
    const Config& c = s.config;
    a |= kUserEvents;
    if (c.profile_all || c.profile_imperative) a |= kImperativeOps;
    if (c.profile_all || c.profile_symbolic) a |= kSymbolicOps;
    if (c.profile_all || c.profile_memory) a |= kMemory;
    if (c.profile_all || c.profile_api) a |= kApi;
  }
  StorageMemoryHookSlot().store((a & kMemory) != 0 ? &OnStorage : nullptr, std::memory_order_relaxed);
  g_active.store(a, std::memory_order_relaxed);
}

bool ParseBool(const std::string& key, const std::string& v) {
  if (v == "True" || v == "true" || v == "1") return true;
  if (v == "False" || v == "false" || v == "0") return false;
  WEFT_THROW(kInvalidArgument) << "profiler.set_config: " << key << " must be a boolean, got '" << v << "'";
}

// Written to a temporary file renamed over the target, so a reader (or a
// crash) never sees half a trace.
void WriteTrace(State& s) {
  const std::string json = internal::TraceJson(s.collected, static_cast<int>(getpid()));
  const std::string& path = s.config.filename;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    WEFT_CHECK(f.good(), kIO) << "profiler.dump: cannot write '" << path << "'";
    f << json;
    f.close();
    WEFT_CHECK(f.good(), kIO) << "profiler.dump: writing '" << path << "' failed";
  }
  WEFT_CHECK(std::rename(tmp.c_str(), path.c_str()) == 0, kIO) << "profiler.dump: cannot write '" << path << "'";
}

void StopDumper(State& s, std::unique_lock<std::mutex>* lk) {
  if (!s.dumper.joinable()) return;
  s.dumper_stop = true;
  s.dumper_cv.notify_all();
  std::thread t = std::move(s.dumper);
  lk->unlock();
  t.join();
  lk->lock();
}

void StartDumper(State& s) {
  s.dumper_stop = false;
  const auto period = std::chrono::duration<double>(s.config.dump_period);
  s.dumper = std::thread([&s, period] {
    std::unique_lock<std::mutex> lk(s.mu);
    while (!s.dumper_stop) {
      s.dumper_cv.wait_for(lk, period);
      if (s.dumper_stop) break;
      try {
        DrainAll(s);
        WriteTrace(s);
      } catch (...) {
        // A file that cannot be written now is reported by the next dump().
      }
    }
  });
}

}  // namespace

uint64_t NowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

SymbolicScope::SymbolicScope() : prev_(tl_symbolic) { tl_symbolic = true; }
SymbolicScope::~SymbolicScope() { tl_symbolic = prev_; }

namespace {
// Records one run of an op on the thread running it, also when fn throws.
struct OpTimer {
  const std::string& name;
  Context ctx;
  uint64_t start;
  int64_t bytes0;
  OpTimer(const std::string& n, Context c) : name(n), ctx(c), start(NowNs()), bytes0(tl_bytes_allocated) {}
  ~OpTimer() {
    try {
      Record r;
      r.kind = Kind::kDuration;
      r.name = name;
      r.cat = kOperatorCat;
      r.dev_type = static_cast<int>(ctx.dev_type);
      r.dev_id = ctx.dev_id;
      r.start_ns = start;
      r.end_ns = NowNs();
      r.value = tl_bytes_allocated - bytes0;
      Append(std::move(r));
    } catch (...) {
    }
  }
};
}  // namespace

void WrapOp(SyncFn* fn, const char* name, Context ctx) {
  const int a = Active();
  if ((a & (tl_symbolic ? kSymbolicOps : kImperativeOps)) == 0 || !*fn) return;
  std::string full = tl_scope.empty() ? std::string(name) : tl_scope + name;
  *fn = [inner = std::move(*fn), full = std::move(full), ctx](RunContext rctx) {
    OpTimer t(full, ctx);
    inner(rctx);
  };
}

void RecordApi(const char* name, uint64_t start_ns) {
  try {
    Record r;
    r.kind = Kind::kDuration;
    r.name = name;
    r.cat = kApiCat;
    r.start_ns = start_ns;
    r.end_ns = NowNs();
    Append(std::move(r));
  } catch (...) {
  }
}

void NoteMemory(Context ctx, int64_t bytes, int64_t in_use) { OnStorage(ctx, bytes, in_use); }

// ---- control ----------------------------------------------------------------

void SetConfig(const std::vector<std::pair<std::string, std::string>>& kv) {
  State& s = S();
  std::unique_lock<std::mutex> lk(s.mu);
  Config c = s.config;
  for (const auto& [key, v] : kv) {
    if (key == "profile_all") {
      c.profile_all = ParseBool(key, v);
    } else if (key == "profile_symbolic") {
      c.profile_symbolic = ParseBool(key, v);
    } else if (key == "profile_imperative") {
      c.profile_imperative = ParseBool(key, v);
    } else if (key == "profile_memory") {
      c.profile_memory = ParseBool(key, v);
    } else if (key == "profile_api") {
      c.profile_api = ParseBool(key, v);
    } else if (key == "continuous_dump") {
      c.continuous_dump = ParseBool(key, v);
    } else if (key == "aggregate_stats") {
      c.aggregate_stats = ParseBool(key, v);
    } else if (key == "filename") {
      WEFT_CHECK(!v.empty(), kInvalidArgument) << "profiler.set_config: filename must not be empty";
      c.filename = v;
    } else if (key == "dump_period") {
      char* end = nullptr;
      const double p = std::strtod(v.c_str(), &end);
      WEFT_CHECK(end != v.c_str() && *end == '\0' && p > 0, kInvalidArgument)
          << "profiler.set_config: dump_period must be a number of seconds > 0, got '" << v << "'";
      c.dump_period = p;
    } else if (key == "profile_process") {
      WEFT_CHECK(v == "worker", kInvalidArgument)
          << "profiler.set_config: profile_process '" << v
          << "' is not supported: Weft profiles the worker (this process) only";
    } else {
      WEFT_THROW(kInvalidArgument)
          << "profiler.set_config: Cannot find argument '" << key
          << "', Possible Arguments: profile_all, profile_symbolic, profile_imperative, profile_memory, "
             "profile_api, filename, continuous_dump, dump_period, aggregate_stats, profile_process";
    }
  }
  const bool dumper_changed = c.continuous_dump != s.config.continuous_dump || c.dump_period != s.config.dump_period;
  s.config = c;
  if (s.running && dumper_changed) {
    StopDumper(s, &lk);
    if (s.config.continuous_dump && s.running) StartDumper(s);
  }
  Publish(s);
}

void SetState(bool run) {
  State& s = S();
  std::unique_lock<std::mutex> lk(s.mu);
  if (run == s.running) return;
  s.running = run;
  Publish(s);
  if (run) {
    if (s.config.continuous_dump) StartDumper(s);
  } else {
    StopDumper(s, &lk);
  }
}

void SetPaused(bool paused) {
  State& s = S();
  std::lock_guard<std::mutex> lk(s.mu);
  s.paused = paused;
  Publish(s);
}

void Dump(bool finished) {
  State& s = S();
  std::lock_guard<std::mutex> lk(s.mu);
  DrainAll(s);
  WriteTrace(s);
  if (finished) s.collected.trace.clear();
}

std::string Dumps(bool reset, int format, int sort_by, bool ascending) {
  WEFT_CHECK(format == 0 || format == 1, kInvalidArgument)
      << "profiler.dumps: format must be 'table' or 'json'";
  WEFT_CHECK(sort_by >= 0 && sort_by <= 4, kInvalidArgument)
      << "profiler.dumps: sort_by must be 'total', 'avg', 'min', 'max' or 'count'";
  State& s = S();
  std::lock_guard<std::mutex> lk(s.mu);
  DrainAll(s);
  std::string out = internal::AggregateText(s.collected.aggregate, format == 1, sort_by, ascending);
  if (reset) s.collected.aggregate.clear();
  return out;
}

void SetScope(const std::string& scope) { tl_scope = scope == "<unk>:" ? std::string() : scope; }

// ---- user objects -------------------------------------------------------------

struct Object {
  ObjectKind kind;
  std::string name;
  const char* cat = kEventCat;  // the domain's name, interned
  uint64_t start_ns = 0;
  bool started = false;
  std::atomic<int64_t> value{0};
};

Object* CreateObject(ObjectKind kind, const Object* domain, const std::string& name) {
  WEFT_CHECK(kind == ObjectKind::kDomain || kind == ObjectKind::kEvent || domain != nullptr, kInvalidArgument)
      << "profiler: '" << name << "' needs a Domain";
  WEFT_CHECK(domain == nullptr || domain->kind == ObjectKind::kDomain, kInvalidArgument)
      << "profiler: the domain given for '" << name << "' is not a Domain";
  auto obj = std::make_unique<Object>();
  obj->kind = kind;
  obj->name = name;
  State& s = S();
  std::lock_guard<std::mutex> lk(s.mu);
  if (kind == ObjectKind::kDomain) {
    obj->cat = s.interned.insert(name).first->c_str();
  } else if (domain != nullptr) {
    obj->cat = domain->cat;
  }
  return obj.release();
}

void DestroyObject(Object* obj) { delete obj; }

void DurationStart(Object* obj) {
  WEFT_CHECK(obj->kind == ObjectKind::kTask || obj->kind == ObjectKind::kFrame || obj->kind == ObjectKind::kEvent,
             kInvalidArgument)
      << "profiler: '" << obj->name << "' is not a Task, Frame or Event";
  obj->start_ns = NowNs();
  obj->started = true;
}

void DurationStop(Object* obj) {
  WEFT_CHECK(obj->kind == ObjectKind::kTask || obj->kind == ObjectKind::kFrame || obj->kind == ObjectKind::kEvent,
             kInvalidArgument)
      << "profiler: '" << obj->name << "' is not a Task, Frame or Event";
  WEFT_CHECK(obj->started, kInvalidArgument) << "profiler: stop() of '" << obj->name << "' without start()";
  obj->started = false;
  if ((Active() & kUserEvents) == 0) return;
  Record r;
  r.kind = Kind::kDuration;
  r.name = obj->name;
  r.cat = obj->cat;
  r.start_ns = obj->start_ns;
  r.end_ns = NowNs();
  Append(std::move(r));
}

namespace {
void RecordCounter(const Object* obj, int64_t value) {
  if ((Active() & kUserEvents) == 0) return;
  Record r;
  r.kind = Kind::kCounter;
  r.name = obj->name;
  r.cat = obj->cat;
  r.start_ns = NowNs();
  r.value = value;
  Append(std::move(r));
}
void CheckCounter(const Object* obj) {
  WEFT_CHECK(obj->kind == ObjectKind::kCounter, kInvalidArgument) << "profiler: '" << obj->name << "' is not a Counter";
}
}  // namespace

void SetCounter(Object* obj, int64_t value) {
  CheckCounter(obj);
  obj->value.store(value);
  RecordCounter(obj, value);
}

void AdjustCounter(Object* obj, int64_t delta) {
  CheckCounter(obj);
  RecordCounter(obj, obj->value.fetch_add(delta) + delta);
}

void SetMarker(const Object* domain, const std::string& name, const std::string& scope) {
  WEFT_CHECK(domain != nullptr && domain->kind == ObjectKind::kDomain, kInvalidArgument)
      << "profiler: the marker '" << name << "' needs a Domain";
  char s;
  if (scope == "global") {
    s = 'g';
  } else if (scope == "process") {
    s = 'p';
  } else if (scope == "thread" || scope == "task" || scope == "marker") {
    s = 't';
  } else {
    WEFT_THROW(kInvalidArgument) << "profiler: marker scope must be 'global', 'process', 'thread', 'task' or "
                                    "'marker', got '" << scope << "'";
  }
  if ((Active() & kUserEvents) == 0) return;
  Record r;
  r.kind = Kind::kInstant;
  r.scope = s;
  r.name = name;
  r.cat = domain->cat;
  r.start_ns = NowNs();
  Append(std::move(r));
}

}  // namespace profiler
}  // namespace weft
