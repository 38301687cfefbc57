// One worker lane of the threaded engine: a ready queue ordered by priority
// and the threads that drain it. The engine keeps one lane per (device,
// FnProperty): a pool of WEFT_CPU_WORKER_NTHREADS threads for compute and a
// single thread each for copies and communication.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace weft {
namespace engine_internal {

struct OprBlock;

// Ops whose dependencies are satisfied, waiting for a worker. Priority 0 (the
// common case) goes to a FIFO ring, so the usual push and pop are O(1) and
// allocate nothing; other priorities go to a binary heap. Pop takes positive
// priorities first, then the FIFO, then negative priorities; equal priorities
// run in arrival order.
class ReadyQueue {
 public:
  // Returns false, queueing nothing, once Close() was called: the caller runs
  // the op itself (Note [Engine shutdown]).
  bool Push(OprBlock* op, int priority);
  // Blocks until an op is ready; nullptr once Stop() was called and the queue
  // is empty.
  OprBlock* Pop();
  void Stop();
  // Accepts Pops again after Stop() (the engine restarts its lanes after fork).
  void Restart();
  // Stop() for good: Pushes are refused from now on. Ops queued before are
  // still handed out, so none is stranded.
  void Close();

 private:
  struct Entry {
    int priority;
    uint64_t seq;
    OprBlock* op;
  };
  // Heap order: higher priority first, then lower sequence number.
  static bool HeapLess(const Entry& a, const Entry& b) {
    return a.priority != b.priority ? a.priority < b.priority : a.seq > b.seq;
  }
  bool TryPopLocked(OprBlock** op);
  void RingPush(OprBlock* op);

  std::mutex mu_;
  std::condition_variable cv_;
  // Ring buffer of priority-0 ops; capacity is a power of two.
  std::vector<OprBlock*> ring_ = std::vector<OprBlock*>(256);
  size_t ring_head_ = 0;  // index of the oldest op
  size_t ring_size_ = 0;
  std::vector<Entry> heap_;
  uint64_t seq_ = 0;
  // Invariant (under mu_): sleepers_ counts workers blocked in cv_ that have
  // not been handed a wake token; a pusher that finds sleepers_ > 0 moves one
  // to wake_tokens_ and notifies. So a push notifies (a syscall) only when a
  // worker is really asleep, and at most once per sleeping worker.
  int sleepers_ = 0;
  int wake_tokens_ = 0;
  bool stop_ = false;
  bool closed_ = false;  // Close() was called; Restart() keeps it
  // ring_size_ + heap_.size(), readable without mu_ by spinning workers.
  std::atomic<size_t> approx_size_{0};
};

class WorkerPool {
 public:
  // Starts `nthreads` threads that pop ops and call run(op); run must not
  // throw. `name` (at most 15 chars) labels the threads for debuggers.
  WorkerPool(int nthreads, std::function<void(OprBlock*)> run, const std::string& name);
  // Stops the threads once the queue is empty and joins them.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False once closed: the caller must run op itself.
  bool Push(OprBlock* op, int priority) { return queue_.Push(op, priority); }

  // Note [Engine and fork]: joins the threads once the queue is empty; ops
  // pushed meanwhile wait in the queue until StartThreads().
  void StopThreads();
  void StartThreads();
  // Note [Engine shutdown]: refuses pushes from now on, lets the threads run
  // what was queued before and joins them.
  void Close();

 private:
  ReadyQueue queue_;
  std::function<void(OprBlock*)> run_;
  int nthreads_;
  std::string name_;
  std::vector<std::thread> threads_;
};

}  // namespace engine_internal
}  // namespace weft
