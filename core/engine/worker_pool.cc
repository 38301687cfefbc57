#include "core/engine/worker_pool.h"

#include <algorithm>
#include <chrono>

#include "core/engine/engine_internal.h"

#if defined(__linux__)
#include <pthread.h>
#endif

namespace weft {
namespace engine_internal {

namespace {
// How long an idle worker polls before sleeping. Short bursts of pushes (one
// op every few hundred ns) then reach a worker without a futex wake on the
// pusher's side, which would cost microseconds; a worker that finds nothing
// for this long goes to sleep and costs nothing. Measured in time, not in
// pause instructions, whose length varies 10x between CPUs.
constexpr auto kSpinTime = std::chrono::microseconds(50);
}  // namespace

void ReadyQueue::RingPush(OprBlock* op) {
  if (ring_size_ == ring_.size()) {
    // Grow: unroll the ring into a buffer twice as large, oldest first.
    std::vector<OprBlock*> bigger(ring_.size() * 2);
    for (size_t i = 0; i < ring_size_; ++i) bigger[i] = ring_[(ring_head_ + i) & (ring_.size() - 1)];
    ring_.swap(bigger);
    ring_head_ = 0;
  }
  ring_[(ring_head_ + ring_size_) & (ring_.size() - 1)] = op;
  ++ring_size_;
}

bool ReadyQueue::Push(OprBlock* op, int priority) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (closed_) return false;
    if (priority == 0) {
      RingPush(op);
    } else {
      heap_.push_back(Entry{priority, seq_++, op});
      std::push_heap(heap_.begin(), heap_.end(), HeapLess);
    }
    approx_size_.store(ring_size_ + heap_.size(), std::memory_order_relaxed);
    if (sleepers_ > 0) {
      --sleepers_;
      ++wake_tokens_;
      wake = true;
    }
  }
  // Notify outside the lock so the woken worker does not block on mu_ at once.
  if (wake) cv_.notify_one();
  return true;
}

bool ReadyQueue::TryPopLocked(OprBlock** op) {
  if (!heap_.empty() && (heap_.front().priority > 0 || ring_size_ == 0)) {
    std::pop_heap(heap_.begin(), heap_.end(), HeapLess);
    *op = heap_.back().op;
    heap_.pop_back();
  } else if (ring_size_ > 0) {
    *op = ring_[ring_head_];
    ring_head_ = (ring_head_ + 1) & (ring_.size() - 1);
    --ring_size_;
  } else {
    return false;
  }
  approx_size_.store(ring_size_ + heap_.size(), std::memory_order_relaxed);
  return true;
}

OprBlock* ReadyQueue::Pop() {
  OprBlock* op = nullptr;
  for (;;) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (TryPopLocked(&op)) return op;
      if (stop_) return nullptr;
    }
    // Poll without the lock for a while before sleeping, yielding now and
    // then so a pusher sharing this core keeps running.
    auto deadline = std::chrono::steady_clock::now() + kSpinTime;
    for (int i = 1; approx_size_.load(std::memory_order_relaxed) == 0; ++i) {
      CpuRelax();
      if (i % 16 == 0) {
        if (std::chrono::steady_clock::now() > deadline) break;
        std::this_thread::yield();
      }
    }
    std::unique_lock<std::mutex> lk(mu_);
    if (TryPopLocked(&op)) return op;
    if (stop_) return nullptr;
    ++sleepers_;
    cv_.wait(lk, [this] { return wake_tokens_ > 0 || stop_; });
    if (wake_tokens_ > 0) {
      --wake_tokens_;  // the pusher already took us off sleepers_
    } else {
      --sleepers_;  // woken by Stop()
    }
  }
}

void ReadyQueue::Restart() {
  std::lock_guard<std::mutex> lk(mu_);
  stop_ = false;
}

void ReadyQueue::Close() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    closed_ = true;
    stop_ = true;
  }
  cv_.notify_all();
}

void ReadyQueue::Stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

WorkerPool::WorkerPool(int nthreads, std::function<void(OprBlock*)> run, const std::string& name)
    : run_(std::move(run)), nthreads_(nthreads), name_(name) {
  StartThreads();
}

void WorkerPool::StartThreads() {
  queue_.Restart();
  threads_.reserve(static_cast<size_t>(nthreads_));
  try {
    for (int i = 0; i < nthreads_; ++i) {
      threads_.emplace_back([this] {
        while (OprBlock* op = queue_.Pop()) run_(op);
      });
#if defined(__linux__)
      std::string thread_name = name_.substr(0, 12) + "/" + std::to_string(i);
      pthread_setname_np(threads_.back().native_handle(), thread_name.substr(0, 15).c_str());
#endif
    }
  } catch (...) {
    // Could not start every thread: join those that did before failing.
    StopThreads();
    throw;
  }
}

void WorkerPool::StopThreads() {
  queue_.Stop();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void WorkerPool::Close() {
  // Under the queue's lock every Push lands either before the close (and is
  // popped by a thread before it exits: Pop empties the queue before it
  // returns nullptr) or after it (and is refused), never in between.
  queue_.Close();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

WorkerPool::~WorkerPool() { StopThreads(); }

}  // namespace engine_internal
}  // namespace weft
