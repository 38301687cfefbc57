// Pieces shared by the engine implementations; not part of the public engine
// interface (core/engine/engine.h).
#pragma once
#include <atomic>
#include <exception>
#include <memory>
#include <thread>

#include "core/engine/engine.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace weft {
namespace engine_internal {

// Factories, defined next to each engine; Engine::Create picks one.
std::unique_ptr<Engine> MakeNaiveEngine();
std::unique_ptr<Engine> MakeThreadedEngine();

// Call inside a catch block for an exception thrown by op `name`. Returns the
// exception to store on the op's mutable vars: a weft::Error whose message is
// "<name>: <original message>", keeping the status of a weft::Error and using
// Status::kEngine for anything else (Note [Engine semantics]).
std::exception_ptr WrapCurrentException(const char* name);

// Marks the current thread as running an op's function (a worker, or a pusher
// running one inline). Pushes made inside are part of that op's work, so they
// are accepted while the engine shuts down, and Shutdown refuses to be called
// from there: it would wait for the op that called it (Note [Engine shutdown]).
class RunningOpScope {
 public:
  RunningOpScope();
  ~RunningOpScope();
  RunningOpScope(const RunningOpScope&) = delete;
  RunningOpScope& operator=(const RunningOpScope&) = delete;
  static bool Active();
};

// The error a push refused after Shutdown throws, naming the op.
[[noreturn]] void ThrowShutDown(const char* name);
// The error Shutdown throws when called from inside an op.
void CheckShutdownCaller();

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Test-and-test-and-set lock for critical sections of a few dozen
// instructions (a var's queue pointers, the push lock). Cheaper than
// std::mutex when uncontended; yields after a short spin so a preempted
// holder on an oversubscribed machine (2 cores, many workers) is not starved.
class SpinLock {
 public:
  void lock() {
    for (int spins = 0;;) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < 64) {
          CpuRelax();
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace engine_internal
}  // namespace weft
