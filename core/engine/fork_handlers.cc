// Note [Engine and fork]
// A forked child has only the thread that called fork(): the engine's worker
// threads are gone, and any lock they held at that instant stays locked in the
// child forever. So, as MXNet does, every live threaded engine is brought to
// rest around fork(): the prepare handler waits until it is idle and joins its
// workers (nothing is mid-op, no engine lock is held), and the parent and
// child handlers start fresh workers. A child therefore has a working engine
// (DataLoader worker processes can run operators), at the price of a fork
// waiting for pushed work. Forking while another thread is pushing ops is not
// supported (that thread's op may be half pushed).
//
// GNU OpenMP (oneDNN's threading here) is not fork-safe: a child whose parent
// ran parallel regions hangs in its first one. The child therefore runs
// OpenMP with one thread, as PyTorch does in DataLoader workers. OpenBLAS
// installs its own fork handlers.
//
// Note [Fork handler order]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// fork() runs the prepare handlers in the reverse order of their registration.
// LLVM's OpenMP runtime (libomp: clang's -fopenmp, so the ASan build of
// scripts/build_asan.sh) registers its own when it initialises, at the first
// OpenMP call -- after the engine registered ours -- so its prepare handler ran
// first and took its fork locks, then ours joined the engine's workers, whose
// thread-exit destructors (libomp's, for the OpenMP team a worker had used)
// wait for those same locks: every fork after an operator ran spun forever
// (a DataLoader with num_workers hung test_gluon_data.py under ASan; gdb: both
// workers in __kmp_acquire_ticket_lock from __nptl_deallocate_tsd, the main
// thread in our StopThreads). So the OpenMP runtime is initialised before our
// handlers are registered (omp_get_max_threads, weak: absent without OpenMP),
// making ours run first: the workers are gone before libomp locks anything.
// With GNU OpenMP (the GCC build) the call is harmless.
//
// Note [OpenMP reads the environment once]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The same call has a second purpose. libomp's initialisation (at its first
// call in a process, and again in a forked child) copies the whole environment:
// it measures every variable, allocates one block, then copies each. Before the
// call above existed, the process's first OpenMP call was a kernel's, on an
// engine worker, while the Python thread went on and could set a variable in
// between (pytest sets PYTEST_CURRENT_TEST at every test phase): the copy then
// overran its block by the longer value -- issue 35's intermittent "WRITE of
// size 108" on an engine worker under ASan, the length of
// "PYTEST_CURRENT_TEST=...::test_array_from_ndarray_keeps_dtype_and_copies
// (teardown)" with its NUL, the test whose kernel ran then -- or read a freed
// string (SEGV in strlen). Made here, on the thread that makes the first engine
// and before that engine has any worker, the copy is over before anything
// runs beside it (docs/ASAN_PYTHON_RUNS.md has the reproduction; a forked
// child's libomp starts again at Child()'s omp_set_num_threads, on the forking
// thread). GNU OpenMP reads its settings in its constructor, at load, so the
// GCC build never raced.
//
// The copy still reads the environment once, on the thread that makes the
// engine, so a program whose *other* thread calls setenv at that instant
// races with it (the later "WRITE of size 161 on T0": the reproduction's own
// second Python thread rewriting a variable while the main thread made the
// engine; memcpy in libomp's environment copy, under omp_get_max_threads,
// RegisterForFork, the ThreadedEngine constructor, Engine::Get). That race is
// the caller's, as with any getenv: setenv is not thread-safe (POSIX; glibc
// marks it MT-Unsafe), and no library can read its settings without reading
// the environment. What the library owes is that OpenMP's copy, the read that
// overran, happens on the caller's thread and never behind it on a worker;
// test_env_writes_during_kernels.py rewrites a variable on the main thread, as
// pytest does, while kernels run on the workers.
#include <pthread.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/engine/threaded_engine.h"

extern "C" void omp_set_num_threads(int) __attribute__((weak));
extern "C" int omp_get_max_threads() __attribute__((weak));

namespace weft {
namespace engine_internal {
namespace {

std::mutex& RegistryMutex() {
  static std::mutex* mu = new std::mutex();  // leaked: used during exit
  return *mu;
}

std::vector<ThreadedEngine*>& Registry() {
  static auto* engines = new std::vector<ThreadedEngine*>();
  return *engines;
}

// The registry lock is held from prepare to parent/child, so no engine is
// created or destroyed while one is being forked.
void Prepare() {
  RegistryMutex().lock();
  for (ThreadedEngine* e : Registry()) e->BeforeFork();
}

void Parent() {
  for (ThreadedEngine* e : Registry()) e->AfterFork();
  RegistryMutex().unlock();
}

void Child() {
  if (omp_set_num_threads != nullptr) omp_set_num_threads(1);
  for (ThreadedEngine* e : Registry()) e->AfterFork();
  RegistryMutex().unlock();
}

}  // namespace

void RegisterForFork(ThreadedEngine* engine) {
  static const bool installed = [] {
    // Note [Fork handler order], Note [OpenMP reads the environment once]
    if (omp_get_max_threads != nullptr) omp_get_max_threads();
    return pthread_atfork(Prepare, Parent, Child) == 0;
  }();
  (void)installed;
  std::lock_guard<std::mutex> lk(RegistryMutex());
  Registry().push_back(engine);
}

void UnregisterForFork(ThreadedEngine* engine) {
  std::lock_guard<std::mutex> lk(RegistryMutex());
  auto& r = Registry();
  r.erase(std::remove(r.begin(), r.end(), engine), r.end());
}

}  // namespace engine_internal
}  // namespace weft
