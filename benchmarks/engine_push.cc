// Caller-side cost of Engine::Push (docs/DESIGN.md: "pushing an empty op costs
// well under a microsecond"). Times only the push loop; the engine then
// drains outside the timed region. Reports wall time and the pushing
// thread's CPU time: on a small or busy machine the workers compete with the
// pusher for cores, and the CPU time is the cost that Push itself adds to
// the caller. Prints the median ns/op of 5 runs for
//  * empty ops with no vars, and
//  * empty ops with one read and one write var from a rotating set,
// under the threaded engine and, for comparison, the naive engine (which
// runs each op on the caller, so its number includes the execution).
//
//   bench_engine_push [num_ops]     (default 1000000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/engine/engine.h"

namespace {

using weft::Context;
using weft::Engine;
using weft::FnProperty;
using weft::RunContext;
using weft::VarHandle;

double ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

struct Cost {
  double wall_ns;  // per op
  double cpu_ns;   // per op, pushing thread only
};

Cost PushCost(Engine* engine, long num_ops, bool with_vars) {
  const int kNumVars = 64;
  std::vector<VarHandle> vars;
  for (int i = 0; i < kNumVars; ++i) vars.push_back(engine->NewVar());
  const std::vector<VarHandle> none;
  // Prebuilt var lists so the loop measures Push, not vector construction.
  std::vector<std::vector<VarHandle>> reads(kNumVars), writes(kNumVars);
  for (int i = 0; i < kNumVars; ++i) {
    reads[i] = {vars[i]};
    writes[i] = {vars[(i + 1) % kNumVars]};
  }
  auto start = std::chrono::steady_clock::now();
  double cpu_start = ThreadCpuNs();
  for (long i = 0; i < num_ops; ++i) {
    if (with_vars) {
      int k = static_cast<int>(i % kNumVars);
      engine->Push([](RunContext) {}, Context::CPU(), reads[k], writes[k], FnProperty::kNormal, 0,
                    "empty");
    } else {
      engine->Push([](RunContext) {}, Context::CPU(), none, none, FnProperty::kNormal, 0, "empty");
    }
  }
  double cpu_stop = ThreadCpuNs();
  auto stop = std::chrono::steady_clock::now();
  engine->WaitForAll();
  for (VarHandle v : vars) engine->DeleteVar(nullptr, Context::CPU(), v);
  engine->WaitForAll();
  double n = static_cast<double>(num_ops);
  return {std::chrono::duration<double, std::nano>(stop - start).count() / n, (cpu_stop - cpu_start) / n};
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  long num_ops = argc > 1 ? std::atol(argv[1]) : 1000000;
  if (num_ops <= 0) num_ops = 1000000;
  std::printf("ns per pushed op, median of 5 runs of %ld ops\n", num_ops);
  std::printf("engine     vars                  wall  caller-cpu\n");
  for (const char* kind : {"threaded", "naive"}) {
    auto engine = Engine::Create(kind);
    PushCost(engine.get(), num_ops / 10, false);  // warm up pools and threads
    for (bool with_vars : {false, true}) {
      std::vector<double> wall, cpu;
      for (int r = 0; r < 5; ++r) {
        Cost c = PushCost(engine.get(), num_ops, with_vars);
        wall.push_back(c.wall_ns);
        cpu.push_back(c.cpu_ns);
      }
      std::printf("%-10s %-18s %8.1f %10.1f\n", kind, with_vars ? "1 read + 1 write" : "none",
                  Median(wall), Median(cpu));
    }
  }
  return 0;
}
