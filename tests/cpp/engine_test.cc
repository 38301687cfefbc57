// Engine contract (Note [Engine semantics] in core/engine/engine.h), checked
// under both engines. Also built with ThreadSanitizer (weft_engine_tsan_tests):
// the ops below share plain, non-atomic data whenever the engine is supposed
// to order them, so a missing happens-before edge is a TSan report, and a
// missing dependency is a wrong value.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/base/error.h"
#include "core/engine/engine.h"
#include "core/engine/inline_push.h"

namespace weft {
namespace {

using std::chrono::milliseconds;

class EngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { engine_ = Engine::Create(GetParam()); }
  void TearDown() override {
    // The engine must be idle and clean after every test.
    EXPECT_NO_THROW(engine_->WaitForAll());
    engine_.reset();
  }
  bool threaded() const { return GetParam() == "threaded"; }
  Engine& eng() { return *engine_; }

  std::unique_ptr<Engine> engine_;
};

// Spins until pred() or a timeout; returns pred(). For ops that must meet
// another op that runs concurrently.
template <typename Pred>
bool WaitUntil(Pred pred, int timeout_ms = 10000) {
  auto deadline = std::chrono::steady_clock::now() + milliseconds(timeout_ms);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return true;
}

// Expects `fn` to throw a weft::Error with `status` whose message contains
// `needle`.
template <typename Fn>
void ExpectEngineError(Fn fn, Status status, const std::string& needle) {
  try {
    fn();
    ADD_FAILURE() << "expected an exception containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// Creates an engine with `n` compute workers per device (the pool size is
// read from WEFT_CPU_WORKER_NTHREADS when an engine is created).
std::unique_ptr<Engine> CreateWithWorkers(const std::string& kind, int n) {
  const char* old = std::getenv("WEFT_CPU_WORKER_NTHREADS");
  std::string saved = old ? old : "";
  setenv("WEFT_CPU_WORKER_NTHREADS", std::to_string(n).c_str(), 1);
  std::unique_ptr<Engine> e = Engine::Create(kind);
  if (old) {
    setenv("WEFT_CPU_WORKER_NTHREADS", saved.c_str(), 1);
  } else {
    unsetenv("WEFT_CPU_WORKER_NTHREADS");
  }
  return e;
}

TEST(EngineFactory, CreateKnownAndUnknownKinds) {
  EXPECT_NE(Engine::Create("naive"), nullptr);
  EXPECT_NE(Engine::Create("threaded"), nullptr);
  ExpectEngineError([] { Engine::Create("fast"); }, Status::kInvalidArgument, "fast");
}

TEST(EngineFactory, GetReturnsOneLongLivedEngine) {
  Engine* e = Engine::Get();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e, Engine::Get());
  VarHandle v = e->NewVar();
  int x = 0;
  e->Push([&x](RunContext) { x = 42; }, Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "set");
  e->WaitForVar(v);
  EXPECT_EQ(x, 42);
  e->DeleteVar(nullptr, Context::CPU(), v);
  e->WaitForAll();
}

TEST_P(EngineTest, WritesAreOrdered) {
  VarHandle v = eng().NewVar();
  std::vector<int> log;  // written only by ops holding v exclusively
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    // Alternate devices and lanes: the order must hold across them.
    Context ctx = Context::CPU(i % 2);
    FnProperty prop = i % 3 == 0 ? FnProperty::kCopy : FnProperty::kNormal;
    eng().Push([&log, i](RunContext) { log.push_back(i); }, ctx, {}, {v}, prop, i % 5, "append");
  }
  eng().WaitForVar(v);
  ASSERT_EQ(log.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ASSERT_EQ(log[i], i);
  eng().DeleteVar(nullptr, Context::CPU(), v);
}

// Note [Write stamps]: a completed write renews the stamp, a read does not,
// and the stamp an op reads is the one its predecessor's write left.
TEST_P(EngineTest, WriteStampsChangeOnlyWithCompletedWrites) {
  VarHandle a = eng().NewVar(), b = eng().NewVar();
  const uint64_t a0 = eng().WriteStamp(a), b0 = eng().WriteStamp(b);
  EXPECT_NE(a0, 0u);
  EXPECT_NE(a0, b0);  // unique across vars
  eng().Push([](RunContext) {}, Context::CPU(), {a}, {}, FnProperty::kNormal, 0, "read");
  eng().WaitForVar(a);
  EXPECT_EQ(eng().WriteStamp(a), a0);
  uint64_t seen_by_reader = 0;
  for (int i = 0; i < 3; ++i)
    eng().Push([](RunContext) {}, Context::CPU(), {}, {a}, FnProperty::kNormal, 0, "write");
  eng().Push([&](RunContext) { seen_by_reader = eng().WriteStamp(a); }, Context::CPU(), {a}, {b},
             FnProperty::kNormal, 0, "read a, write b");
  eng().WaitForVar(b);
  const uint64_t a3 = eng().WriteStamp(a);
  EXPECT_NE(a3, a0);
  EXPECT_EQ(seen_by_reader, a3);
  EXPECT_NE(eng().WriteStamp(b), b0);
  // A failed write still ends: the stamp moves on.
  eng().Push([](RunContext) { WEFT_THROW(kInternal) << "boom"; }, Context::CPU(), {}, {a}, FnProperty::kNormal,
             0, "failing write");
  EXPECT_THROW(eng().WaitForVar(a), Error);
  EXPECT_NE(eng().WriteStamp(a), a3);
  eng().DeleteVar(nullptr, Context::CPU(), a);
  eng().DeleteVar(nullptr, Context::CPU(), b);
}

TEST_P(EngineTest, ReadsRunConcurrentlyBetweenWrites) {
  if (!threaded()) GTEST_SKIP() << "the naive engine runs one op at a time";
  engine_ = CreateWithWorkers(GetParam(), 2);  // two reads need two workers
  VarHandle v = eng().NewVar();
  int value = 0;
  std::atomic<int> arrived{0};
  std::atomic<int> reads_done{0};
  bool met[2] = {false, false};
  int seen[2] = {0, 0};
  int reads_done_at_write = -1;
  eng().Push([&](RunContext) { value = 1; }, Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "w1");
  for (int r = 0; r < 2; ++r) {
    eng().Push(
        [&, r](RunContext) {
          seen[r] = value;
          // Both reads must be running at once to get past this point.
          arrived.fetch_add(1);
          met[r] = WaitUntil([&] { return arrived.load() == 2; });
          reads_done.fetch_add(1);
        },
        Context::CPU(), {v}, {}, FnProperty::kNormal, 0, "read");
  }
  eng().Push(
      [&](RunContext) {
        reads_done_at_write = reads_done.load();
        value = 2;
      },
      Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "w2");
  eng().WaitForVar(v);
  EXPECT_TRUE(met[0] && met[1]) << "the two reads did not overlap";
  EXPECT_EQ(seen[0], 1);
  EXPECT_EQ(seen[1], 1);
  EXPECT_EQ(reads_done_at_write, 2) << "a write ran before earlier reads finished";
  EXPECT_EQ(value, 2);
  eng().DeleteVar(nullptr, Context::CPU(), v);
}

TEST_P(EngineTest, WaitForVarWaitsForPendingWrites) {
  VarHandle v = eng().NewVar();
  int value = 0;  // plain: WaitForVar must order the write before our read
  eng().Push(
      [&value](RunContext) {
        std::this_thread::sleep_for(milliseconds(20));
        value = 7;
      },
      Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "slow_write");
  eng().WaitForVar(v);
  EXPECT_EQ(value, 7);
  eng().WaitForVar(v);  // idle var: returns at once
  eng().DeleteVar(nullptr, Context::CPU(), v);
}

TEST_P(EngineTest, DuplicateAndOverlappingVars) {
  std::vector<VarHandle> vars;
  for (int i = 0; i < 40; ++i) vars.push_back(eng().NewVar());
  int64_t counter = 0;
  VarHandle a = vars[0], b = vars[1];
  for (int i = 0; i < 200; ++i) {
    // A var in both lists is written; duplicates are ignored.
    eng().Push([&counter](RunContext) { ++counter; }, Context::CPU(i % 2), {a, a, b}, {b, b},
               FnProperty::kNormal, 0, "dups");
    // Many vars: the sorted deduplication path.
    std::vector<VarHandle> reads(vars.begin(), vars.end());
    reads.insert(reads.end(), vars.begin(), vars.begin() + 10);
    std::vector<VarHandle> writes(vars.begin() + 5, vars.begin() + 25);
    writes.push_back(b);
    eng().Push([&counter](RunContext) { ++counter; }, Context::CPU(), reads, writes,
               FnProperty::kNormal, 0, "many");
  }
  eng().WaitForVar(b);
  EXPECT_EQ(counter, 400);
  for (VarHandle v : vars) eng().DeleteVar(nullptr, Context::CPU(), v);
}

// Note [Random DAG stress test]
// Ops with random read/write sets over int64 cells (one per var). Each op
// hashes its id and the cells it reads into `observed[op]`, then mixes that
// into every cell it writes. Running through the engine must give the same
// cells and observations as running the ops in push order: any read that saw
// a wrong version changes the hash. Ops are spread over two devices, the
// copy and communication lanes and several priorities.
struct StressOp {
  std::vector<int> reads;
  std::vector<int> writes;
  Context ctx;
  FnProperty prop;
  int priority;
};

uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

void ApplyStressOp(const StressOp& op, uint64_t id, int64_t* cells, uint64_t* observed) {
  uint64_t h = Mix(id + 1);
  for (int r : op.reads) h = Mix(h ^ static_cast<uint64_t>(cells[r]));
  observed[id] = h;
  for (int w : op.writes) cells[w] = static_cast<int64_t>(Mix(h ^ static_cast<uint64_t>(cells[w]) ^ w));
}

TEST_P(EngineTest, RandomDagMatchesSequentialExecution) {
  const int num_vars = 96;
  const int num_ops = 100000;  // also under TSan, where it takes a few seconds
  std::mt19937_64 rng(12345);
  std::vector<StressOp> ops(num_ops);
  const int priorities[] = {-1, 0, 0, 0, 0, 1, 5};
  for (StressOp& op : ops) {
    int nr = static_cast<int>(rng() % 4);
    int nw = static_cast<int>(rng() % 3);
    // Few distinct vars per op but a small hot set, so chains and fan-in
    // are frequent; duplicates and read+write overlaps happen by chance.
    auto pick = [&] { return rng() % 4 == 0 ? static_cast<int>(rng() % 8) : static_cast<int>(rng() % num_vars); };
    for (int i = 0; i < nr; ++i) op.reads.push_back(pick());
    for (int i = 0; i < nw; ++i) op.writes.push_back(pick());
    op.ctx = Context::CPU(static_cast<int>(rng() % 2));
    uint64_t p = rng() % 20;
    op.prop = p < 16 ? FnProperty::kNormal : p < 19 ? FnProperty::kCopy : FnProperty::kAsync;
    op.priority = priorities[rng() % 7];
  }
  // Checkpoints: WaitForVar mid-stream must see the value as of that point.
  std::vector<std::pair<int, int>> checkpoints;  // (op index before which, var)
  for (int k = 1; k < 10; ++k) checkpoints.push_back({k * num_ops / 10, static_cast<int>(rng() % num_vars)});

  std::vector<int64_t> expect_cells(num_vars);
  for (int i = 0; i < num_vars; ++i) expect_cells[i] = i;
  std::vector<uint64_t> expect_observed(num_ops);
  std::vector<int64_t> expect_checkpoint;
  size_t next_cp = 0;
  for (int i = 0; i < num_ops; ++i) {
    if (next_cp < checkpoints.size() && checkpoints[next_cp].first == i) {
      expect_checkpoint.push_back(expect_cells[checkpoints[next_cp++].second]);
    }
    ApplyStressOp(ops[i], i, expect_cells.data(), expect_observed.data());
  }

  std::vector<int64_t> cells(num_vars);
  for (int i = 0; i < num_vars; ++i) cells[i] = i;
  std::vector<uint64_t> observed(num_ops, 0);
  std::vector<VarHandle> vars;
  for (int i = 0; i < num_vars; ++i) vars.push_back(eng().NewVar());
  int64_t* cells_ptr = cells.data();
  uint64_t* observed_ptr = observed.data();
  std::vector<VarHandle> reads, writes;
  next_cp = 0;
  std::mt19937_64 at_push_rng(777);  // a third of the ops may run at push (Note [Small ops run at push])
  for (int i = 0; i < num_ops; ++i) {
    if (next_cp < checkpoints.size() && checkpoints[next_cp].first == i) {
      int v = checkpoints[next_cp].second;
      eng().WaitForVar(vars[v]);
      EXPECT_EQ(cells[v], expect_checkpoint[next_cp]) << "checkpoint " << next_cp;
      ++next_cp;
    }
    const StressOp& op = ops[i];
    reads.clear();
    writes.clear();
    for (int r : op.reads) reads.push_back(vars[r]);
    for (int w : op.writes) writes.push_back(vars[w]);
    const StressOp* op_ptr = &op;
    RunIfReadyScope at_push(at_push_rng() % 3 == 0);
    eng().Push(
        [op_ptr, i, cells_ptr, observed_ptr](RunContext) {
          ApplyStressOp(*op_ptr, static_cast<uint64_t>(i), cells_ptr, observed_ptr);
        },
        op.ctx, reads, writes, op.prop, op.priority, "stress");
  }
  eng().WaitForAll();
  EXPECT_EQ(cells, expect_cells);
  int mismatches = 0;
  for (int i = 0; i < num_ops; ++i) mismatches += observed[i] != expect_observed[i];
  EXPECT_EQ(mismatches, 0);
  for (VarHandle v : vars) eng().DeleteVar(nullptr, Context::CPU(), v);
}

// Note [Small ops run at push]: inside a RunIfReadyScope an op whose vars are
// idle runs before Push returns, on the pusher; one that must wait is queued
// and runs after what it waits for, on a worker, while the pusher goes on.
TEST_P(EngineTest, RunIfReadyRunsIdleOpsOnThePusherAndQueuesTheRest) {
  VarHandle a = eng().NewVar(), b = eng().NewVar();
  const std::thread::id me = std::this_thread::get_id();
  std::thread::id ran_on;
  int value = 0;
  {
    RunIfReadyScope scope;
    eng().Push([&](RunContext) { ran_on = std::this_thread::get_id(); value = 1; }, Context::CPU(), {}, {a});
  }
  EXPECT_EQ(value, 1) << "an op on idle vars runs inside Push";
  EXPECT_EQ(ran_on, me);
  if (!threaded()) {  // the naive engine runs every op inside Push: nothing can be held pending
    eng().DeleteVar(nullptr, Context::CPU(), a);
    eng().DeleteVar(nullptr, Context::CPU(), b);
    return;
  }
  std::atomic<bool> release{false}, blocker_started{false};
  eng().Push([&](RunContext) { blocker_started = true; WaitUntil([&] { return release.load(); }); }, Context::CPU(),
             {}, {b});
  std::atomic<bool> waiter_ran{false};
  std::thread::id waiter_thread;
  {
    RunIfReadyScope scope;
    // Reads a (idle) and writes b (held by the blocker): it must wait.
    eng().Push([&](RunContext) { waiter_thread = std::this_thread::get_id(); value = 2; waiter_ran = true; },
               Context::CPU(), {a}, {b});
  }
  EXPECT_FALSE(waiter_ran.load()) << "an op that must wait is queued, not run on the pusher";
  EXPECT_TRUE(WaitUntil([&] { return blocker_started.load(); }));
  release = true;
  eng().WaitForVar(b);
  EXPECT_TRUE(waiter_ran.load());
  EXPECT_EQ(value, 2);
  EXPECT_NE(waiter_thread, me);
  // A release (DeleteVar) in the scope: at once on an idle var, after the
  // pending access on a busy one.
  std::atomic<bool> release_b{false}, a_freed{false}, b_freed{false};
  eng().Push([&](RunContext) { WaitUntil([&] { return release_b.load(); }); }, Context::CPU(), {b}, {});
  {
    RunIfReadyScope scope;
    eng().DeleteVar([&] { a_freed = true; }, Context::CPU(), a);
    EXPECT_TRUE(a_freed.load());
    eng().DeleteVar([&] { b_freed = true; }, Context::CPU(), b);
    EXPECT_FALSE(b_freed.load()) << "b is still read by the op pushed before";
  }
  release_b = true;
  eng().WaitForAll();
  EXPECT_TRUE(b_freed.load());
}

TEST_P(EngineTest, ConcurrentPushersShareVars) {
  // Several threads push ops over the same vars in different orders: the
  // engine must not deadlock and must run every op exactly once.
  VarHandle shared_a = eng().NewVar(), shared_b = eng().NewVar();
  int64_t count_a = 0, count_b = 0;
  const int num_threads = 4, per_thread = 2000;
  std::vector<std::thread> pushers;
  for (int t = 0; t < num_threads; ++t) {
    pushers.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        std::vector<VarHandle> w = (t + i) % 2 ? std::vector<VarHandle>{shared_a, shared_b}
                                               : std::vector<VarHandle>{shared_b, shared_a};
        eng().Push(
            [&](RunContext) {
              ++count_a;
              ++count_b;
            },
            Context::CPU(t % 2), {}, w, FnProperty::kNormal, 0, "both");
      }
    });
  }
  for (std::thread& t : pushers) t.join();
  eng().WaitForAll();
  EXPECT_EQ(count_a, num_threads * per_thread);
  EXPECT_EQ(count_b, num_threads * per_thread);
  eng().DeleteVar(nullptr, Context::CPU(), shared_a);
  eng().DeleteVar(nullptr, Context::CPU(), shared_b);
}

TEST_P(EngineTest, ExceptionIsStoredPropagatedAndCleared) {
  VarHandle a = eng().NewVar(), b = eng().NewVar(), c = eng().NewVar(), d = eng().NewVar();
  bool ran_b = false, ran_c = false;
  eng().Push([](RunContext) { throw std::runtime_error("boom"); }, Context::CPU(), {}, {a},
             FnProperty::kNormal, 0, "bad_op");
  eng().Push([&](RunContext) { ran_b = true; }, Context::CPU(), {a}, {b}, FnProperty::kNormal, 0,
             "dependent");
  eng().Push([&](RunContext) { ran_c = true; }, Context::CPU(1), {b}, {c}, FnProperty::kCopy, 0,
             "dependent2");
  // Two levels downstream: skipped, and the message names the failing op.
  ExpectEngineError([&] { eng().WaitForVar(c); }, Status::kEngine, "bad_op: boom");
  EXPECT_FALSE(ran_b);
  EXPECT_FALSE(ran_c);
  EXPECT_NO_THROW(eng().WaitForVar(c));  // cleared on c
  ExpectEngineError([&] { eng().WaitForVar(a); }, Status::kEngine, "bad_op: boom");
  EXPECT_NO_THROW(eng().WaitForVar(a));
  // WaitForVar already reported it, so WaitForAll does not repeat it.
  EXPECT_NO_THROW(eng().WaitForAll());
  EXPECT_NO_THROW(eng().WaitForAll());

  // The engine keeps working, and a cleared var is usable again.
  int x = 0;
  eng().Push([&x](RunContext) { x = 5; }, Context::CPU(), {}, {a}, FnProperty::kNormal, 0, "ok");
  eng().WaitForVar(a);
  EXPECT_EQ(x, 5);

  // A weft::Error keeps its status; anything else becomes kEngine.
  eng().Push([](RunContext) { throw Error(Status::kShape, "bad shape (2,3)"); }, Context::CPU(),
             {}, {d}, FnProperty::kNormal, 0, "Reshape");
  ExpectEngineError([&] { eng().WaitForVar(d); }, Status::kShape, "Reshape: bad shape (2,3)");
  eng().Push([](RunContext) { throw 42; }, Context::CPU(), {}, {d}, FnProperty::kNormal, 0, "odd");
  ExpectEngineError([&] { eng().WaitForVar(d); }, Status::kEngine, "odd: unknown exception");
  EXPECT_NO_THROW(eng().WaitForAll());  // both were reported by WaitForVar already
  // An error nobody waited on by var is reported by WaitForAll, once.
  eng().Push([](RunContext) { throw Error(Status::kShape, "bad shape (4,)"); }, Context::CPU(), {}, {d},
             FnProperty::kNormal, 0, "Reshape");
  ExpectEngineError([&] { eng().WaitForAll(); }, Status::kShape, "Reshape: bad shape (4,)");
  EXPECT_NO_THROW(eng().WaitForAll());
  ExpectEngineError([&] { eng().WaitForVar(d); }, Status::kShape, "Reshape: bad shape (4,)");

  // b still carries the failure: an op writing it is skipped and the
  // failure reaches WaitForAll again.
  eng().Push([&](RunContext) { ran_b = true; }, Context::CPU(), {}, {b}, FnProperty::kNormal, 0,
             "overwrite");
  ExpectEngineError([&] { eng().WaitForAll(); }, Status::kEngine, "bad_op: boom");
  EXPECT_FALSE(ran_b);
  ExpectEngineError([&] { eng().WaitForVar(b); }, Status::kEngine, "bad_op: boom");
  for (VarHandle v : {a, b, c, d}) eng().DeleteVar(nullptr, Context::CPU(), v);
}

// The generator's var of a device (RandomState) is kept valid: a random op that
// fails reports its error on its own outputs, and later draws still run.
TEST_P(EngineTest, KeepValidVarStoresNoException) {
  VarHandle state = eng().NewVar(), out = eng().NewVar(), out2 = eng().NewVar();
  eng().KeepValidOnFailure(state);
  eng().Push([](RunContext) { throw std::runtime_error("bad draw"); }, Context::CPU(), {}, {state, out},
             FnProperty::kNormal, 0, "random_op");
  bool ran = false;
  eng().Push([&](RunContext) { ran = true; }, Context::CPU(), {}, {state, out2}, FnProperty::kNormal, 0,
             "next_random_op");
  ExpectEngineError([&] { eng().WaitForVar(out); }, Status::kEngine, "random_op: bad draw");
  EXPECT_NO_THROW(eng().WaitForVar(out2));
  EXPECT_TRUE(ran);
  EXPECT_NO_THROW(eng().WaitForVar(state));
  EXPECT_NO_THROW(eng().WaitForAll());  // reported once, by WaitForVar(out)
  for (VarHandle v : {state, out, out2}) eng().DeleteVar(nullptr, Context::CPU(), v);
}

TEST_P(EngineTest, DeleteVarRunsAfterPendingOps) {
  VarHandle v = eng().NewVar();
  std::vector<int> log;
  std::atomic<int> reads_done{0};
  const int n = 50;
  for (int i = 0; i < n; ++i) {
    eng().Push(
        [&log, i](RunContext) {
          if (i == 0) std::this_thread::sleep_for(milliseconds(10));  // DeleteVar is pushed meanwhile
          log.push_back(i);
        },
        Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "write");
    eng().Push([&reads_done](RunContext) { reads_done.fetch_add(1); }, Context::CPU(1), {v}, {},
               FnProperty::kNormal, 0, "read");
  }
  int reads_at_delete = -1;
  eng().DeleteVar(
      [&] {
        reads_at_delete = reads_done.load();
        log.push_back(-1);
      },
      Context::CPU(), v);
  eng().WaitForAll();
  ASSERT_EQ(log.size(), static_cast<size_t>(n + 1));
  for (int i = 0; i < n; ++i) EXPECT_EQ(log[i], i);
  EXPECT_EQ(log.back(), -1);
  EXPECT_EQ(reads_at_delete, n);

  // Churn: many short-lived vars, with and without on_delete.
  std::atomic<int> deleted{0};  // on_delete of different vars run concurrently
  for (int i = 0; i < 2000; ++i) {
    VarHandle t = eng().NewVar();
    eng().Push([](RunContext) {}, Context::CPU(i % 2), {}, {t}, FnProperty::kNormal, 0, "touch");
    if (i % 2) {
      eng().DeleteVar(nullptr, Context::CPU(), t);
    } else {
      eng().DeleteVar([&deleted] { deleted.fetch_add(1); }, Context::CPU(), t);
    }
  }
  eng().WaitForAll();
  EXPECT_EQ(deleted.load(), 1000);
}

TEST_P(EngineTest, HighPriorityOpRunsFirst) {
  // One compute worker, so the order ops leave the ready queue is the order
  // they run.
  std::unique_ptr<Engine> e = CreateWithWorkers(GetParam(), 1);
  std::mutex mu;
  std::vector<std::string> order;
  auto record = [&](const std::string& s) {
    return [&, s](RunContext) {
      std::lock_guard<std::mutex> lk(mu);
      order.push_back(s);
    };
  };
  std::atomic<bool> started{false}, gate{false};
  if (threaded()) {
    // Occupy the only worker so the ops below all wait in the ready queue.
    e->Push(
        [&](RunContext) {
          started = true;
          WaitUntil([&] { return gate.load(); });
        },
        Context::CPU(), {}, {}, FnProperty::kNormal, 0, "gate");
    ASSERT_TRUE(WaitUntil([&] { return started.load(); }));
  }
  for (int i = 0; i < 5; ++i) e->Push(record("low" + std::to_string(i)), Context::CPU(), {}, {}, FnProperty::kNormal, 0, "low");
  e->Push(record("negative"), Context::CPU(), {}, {}, FnProperty::kNormal, -3, "neg");
  e->Push(record("high"), Context::CPU(), {}, {}, FnProperty::kNormal, 10, "high");
  gate = true;
  e->WaitForAll();
  ASSERT_EQ(order.size(), 7u);
  EXPECT_NE(std::find(order.begin(), order.end(), "high"), order.end());
  if (threaded()) {
    std::vector<std::string> expect = {"high", "low0", "low1", "low2", "low3", "low4", "negative"};
    EXPECT_EQ(order, expect);
  }
}

TEST_P(EngineTest, CopyLaneRespectsDependencies) {
  VarHandle x = eng().NewVar(), y = eng().NewVar(), z = eng().NewVar();
  int64_t vx = 0, vy = 0, vz = 0;
  std::mutex mu;
  std::set<std::thread::id> compute_threads, copy_threads, comm_threads;
  auto note = [&mu](std::set<std::thread::id>* s) {
    std::lock_guard<std::mutex> lk(mu);
    s->insert(std::this_thread::get_id());
  };
  const int rounds = 300;
  for (int i = 0; i < rounds; ++i) {
    eng().Push([&, i](RunContext) { note(&compute_threads); vx = i; }, Context::CPU(), {}, {x},
               FnProperty::kNormal, 0, "produce");
    eng().Push([&](RunContext) { note(&copy_threads); vy = vx * 2; }, Context::CPU(), {x}, {y},
               FnProperty::kCopy, 0, "copy");
    eng().Push([&](RunContext) { note(&comm_threads); vz += vy + 1; }, Context::CPU(), {y}, {z},
               FnProperty::kAsync, 0, "send");
  }
  eng().WaitForVar(z);
  int64_t expect = 0;
  for (int i = 0; i < rounds; ++i) expect += 2 * i + 1;
  EXPECT_EQ(vz, expect);
  EXPECT_EQ(vy, 2 * (rounds - 1));
  if (threaded()) {
    // Separate lanes: copies never run on compute workers.
    EXPECT_EQ(copy_threads.size(), 1u);
    for (auto id : copy_threads) EXPECT_EQ(compute_threads.count(id), 0u);
    for (auto id : comm_threads) EXPECT_EQ(copy_threads.count(id) + compute_threads.count(id), 0u);
  }
  for (VarHandle v : {x, y, z}) eng().DeleteVar(nullptr, Context::CPU(), v);
}

TEST_P(EngineTest, MultipleCpuContexts) {
  VarHandle chain = eng().NewVar();
  VarHandle side[2] = {eng().NewVar(), eng().NewVar()};
  uint64_t value = 0;  // wraps (defined for unsigned): 3^1000 is far beyond 64 bits
  int64_t side_sum[2] = {0, 0};
  std::mutex mu;
  std::set<std::thread::id> threads[2];
  for (int i = 0; i < 1000; ++i) {
    int dev = i % 2;
    eng().Push(
        [&, dev](RunContext rc) {
          EXPECT_EQ(rc.ctx, Context::CPU(dev));
          {
            std::lock_guard<std::mutex> lk(mu);
            threads[dev].insert(std::this_thread::get_id());
          }
          value = value * 3 + dev;  // order-sensitive across devices
          side_sum[dev] += 1;
        },
        Context::CPU(dev), {}, {chain, side[dev]}, FnProperty::kNormal, 0, "step");
  }
  eng().WaitForAll();
  uint64_t expect = 0;
  for (int i = 0; i < 1000; ++i) expect = expect * 3 + static_cast<uint64_t>(i % 2);
  EXPECT_EQ(value, expect);
  EXPECT_EQ(side_sum[0], 500);
  EXPECT_EQ(side_sum[1], 500);
  if (threaded()) {
    for (auto id : threads[0]) EXPECT_EQ(threads[1].count(id), 0u) << "cpu(0) and cpu(1) share a worker";
  }
  for (VarHandle v : {chain, side[0], side[1]}) eng().DeleteVar(nullptr, Context::CPU(), v);
}

TEST_P(EngineTest, OpsMayPushOps) {
  VarHandle v = eng().NewVar(), w = eng().NewVar();
  int inner = 0;
  eng().Push(
      [&](RunContext) {
        eng().Push([&inner](RunContext) { inner = 1; }, Context::CPU(1), {}, {w},
                   FnProperty::kNormal, 0, "inner");
      },
      Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "outer");
  eng().WaitForAll();  // covers ops pushed by running ops
  EXPECT_EQ(inner, 1);
  eng().DeleteVar(nullptr, Context::CPU(), v);
  eng().DeleteVar(nullptr, Context::CPU(), w);
}

TEST_P(EngineTest, DestructorWaitsForPendingOps) {
  std::unique_ptr<Engine> e = Engine::Create(GetParam());
  VarHandle v = e->NewVar();
  int count = 0;
  for (int i = 0; i < 100; ++i) {
    e->Push([&count](RunContext) { ++count; }, Context::CPU(i % 2), {}, {v}, FnProperty::kNormal, 0, "inc");
  }
  e->DeleteVar(nullptr, Context::CPU(), v);
  e.reset();
  EXPECT_EQ(count, 100);
}

TEST_P(EngineTest, NullVarIsRejected) {
  ExpectEngineError([&] { eng().Push([](RunContext) {}, Context::CPU(), {nullptr}, {}, FnProperty::kNormal, 0, "op"); },
                    Status::kInvalidArgument, "null var");
  ExpectEngineError([&] { eng().WaitForVar(nullptr); }, Status::kInvalidArgument, "null var");
}

INSTANTIATE_TEST_SUITE_P(Engines, EngineTest, ::testing::Values("naive", "threaded"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace weft
