// The per-var queue of ThreadedEngine (Note [Threaded engine design]).
#include <mutex>

#include "core/engine/object_pool.h"
#include "core/engine/threaded_engine.h"

namespace weft {
namespace engine_internal {

using BlockPool = ObjectPool<VersionedVarBlock>;

void ThreadedVar::Init() {
  // A pooled var was left with an empty queue by Release(); only the
  // sentinel and the exception need resetting.
  head_ = BlockPool::New();
  head_->next = nullptr;
  head_->trigger = nullptr;
  head_->write = false;
  pending_write_ = nullptr;
  num_pending_reads_ = 0;
  exception_ = nullptr;
  has_exception_.store(false, std::memory_order_relaxed);
  write_stamp_.store(NextWriteStamp(), std::memory_order_relaxed);
}

void ThreadedVar::Release() {
  std::lock_guard<SpinLock> lk(lock_);
  // DeleteVar's write was the last access: the queue is just the sentinel.
  BlockPool::Delete(head_);
  head_ = nullptr;
  exception_ = nullptr;
  has_exception_.store(false, std::memory_order_relaxed);
}

void ThreadedVar::AppendRead(OprBlock* op) {
  std::lock_guard<SpinLock> lk(lock_);
  if (pending_write_ == nullptr) {
    // No write ahead: the read may run now, alongside the running reads.
    ++num_pending_reads_;
    op->DecrWait();  // cannot reach 0: the pusher still holds one count
    return;
  }
  // A write is ahead: queue behind it. (Allocated under the lock since the
  // common case above needs no block; the pool's New is a thread-local pop.)
  VersionedVarBlock* sentinel = BlockPool::New();
  sentinel->next = nullptr;
  sentinel->trigger = nullptr;
  sentinel->write = false;
  head_->trigger = op;
  head_->write = false;
  head_->next = sentinel;
  head_ = sentinel;
}

void ThreadedVar::AppendWrite(OprBlock* op) {
  // Allocate outside the lock; a write always gets a block.
  VersionedVarBlock* sentinel = BlockPool::New();
  sentinel->next = nullptr;
  sentinel->trigger = nullptr;
  sentinel->write = false;
  std::lock_guard<SpinLock> lk(lock_);
  VersionedVarBlock* block = head_;
  block->trigger = op;
  block->write = true;
  block->next = sentinel;
  head_ = sentinel;
  if (pending_write_ == nullptr) {
    // This is now the oldest write. Granted at once if no read is running;
    // otherwise the last running read grants it (CompleteRead).
    pending_write_ = block;
    if (num_pending_reads_ == 0) {
      num_pending_reads_ = kWriteGranted;
      op->DecrWait();  // cannot reach 0: the pusher still holds one count
    }
  }
}

void ThreadedVar::CompleteRead(ThreadedEngine* engine) {
  OprBlock* grant = nullptr;
  {
    std::lock_guard<SpinLock> lk(lock_);
    // The last running read grants the waiting write, if any.
    if (--num_pending_reads_ == 0 && pending_write_ != nullptr) {
      grant = pending_write_->trigger;
      num_pending_reads_ = kWriteGranted;
    }
  }
  if (grant != nullptr && grant->DecrWait() == 0) engine->OnReady(grant);
}

void ThreadedVar::CompleteWrite(ThreadedEngine* engine) {
  write_stamp_.store(NextWriteStamp(), std::memory_order_relaxed);
  VersionedVarBlock* done = nullptr;   // the completed write's block
  VersionedVarBlock* reads_end = nullptr;  // first block after the reads it releases
  OprBlock* grant_write = nullptr;
  {
    std::lock_guard<SpinLock> lk(lock_);
    done = pending_write_;
    // Release the reads queued right behind the completed write, up to the
    // next write or the sentinel. They are counted as running from now on.
    num_pending_reads_ = 0;
    VersionedVarBlock* p = done->next;
    while (p->next != nullptr && !p->write) {
      ++num_pending_reads_;
      p = p->next;
    }
    reads_end = p;
    if (p->next == nullptr) {
      // Reached the sentinel: no write waits any more.
      pending_write_ = nullptr;
    } else {
      // p is the next write; granted now if no read lies between.
      pending_write_ = p;
      if (num_pending_reads_ == 0) {
        grant_write = p->trigger;
        num_pending_reads_ = kWriteGranted;
      }
    }
  }
  // The blocks from `done` up to reads_end are no longer reachable from the
  // var (pending_write_ and head_ are at or past reads_end), so this thread
  // owns them and walks them without the lock. reads_end itself is only
  // compared, never read: it may be completed and freed concurrently.
  VersionedVarBlock* cur = done->next;
  BlockPool::Delete(done);
  while (cur != reads_end) {
    VersionedVarBlock* next = cur->next;
    OprBlock* read = cur->trigger;
    BlockPool::Delete(cur);
    if (read->DecrWait() == 0) engine->OnReady(read);
    cur = next;
  }
  if (grant_write != nullptr && grant_write->DecrWait() == 0) engine->OnReady(grant_write);
}

std::exception_ptr ThreadedVar::GetException() {
  std::lock_guard<SpinLock> lk(lock_);
  return exception_;
}

void ThreadedVar::SetException(std::exception_ptr e) {
  if (keep_valid_.load(std::memory_order_acquire)) return;
  std::lock_guard<SpinLock> lk(lock_);
  exception_ = std::move(e);
  has_exception_.store(exception_ != nullptr, std::memory_order_release);
}

std::exception_ptr ThreadedVar::TakeException() {
  if (!MayHaveException()) return nullptr;
  std::lock_guard<SpinLock> lk(lock_);
  std::exception_ptr e = std::move(exception_);
  exception_ = nullptr;
  has_exception_.store(false, std::memory_order_release);
  return e;
}

}  // namespace engine_internal
}  // namespace weft
