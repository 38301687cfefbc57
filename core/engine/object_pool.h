// A process-wide pool of constructed objects for the engine's hot path: op
// blocks, var queue blocks and vars.
//
// Why: pushing an op must cost well under 1 us (docs/DESIGN.md), and a block is
// allocated by the pushing thread but freed by a worker, the worst pattern for
// malloc (the free goes to another thread's arena). Objects stay constructed
// while pooled, so the vectors and strings inside an op block keep their
// capacity and reusing a block allocates nothing.
//
// Each thread keeps a free list of its own; New and Delete touch only that
// list. A thread that frees more than it allocates (a worker) hands batches of
// kBatch objects to a global list; a thread that runs dry (a pusher) takes a
// batch back, so the global mutex is taken once per kBatch objects. The global
// list is capped: beyond kMaxGlobalObjects, batches are deleted, so a burst of
// a million pending ops does not pin its memory forever. Exiting threads hand
// their leftovers to the global list.
//
// T must be default-constructible and have a member `T* pool_next`.
#pragma once
#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

namespace weft {
namespace engine_internal {

template <typename T>
class ObjectPool {
 public:
  static T* New() {
    Local& l = local_;
    if (l.head == nullptr) l.Refill();
    T* p = l.head;
    l.head = p->pool_next;
    --l.count;
    p->pool_next = nullptr;
    return p;
  }

  static void Delete(T* p) {
    Local& l = local_;
    if (l.head == nullptr) RegisterFlush();
    p->pool_next = l.head;
    l.head = p;
    // Keep one batch locally after spilling so alternating New/Delete at the
    // boundary does not bounce a batch through the global list.
    if (++l.count >= 2 * kBatch) l.Spill();
  }

 private:
  static constexpr int kBatch = 128;
  static constexpr size_t kMaxGlobalObjects = 64 * 1024;

  struct List {
    T* head;
    int count;
  };
  struct Global {
    std::mutex mu;
    std::vector<List> lists;  // spilled batches and the leftovers of exited threads
    size_t num_objects = 0;
  };
  // Leaked on purpose: threads that exit during process teardown (and the
  // leaked Engine::Get() singleton) may still use the pool.
  static Global& GlobalLists() {
    static Global* g = new Global;
    return *g;
  }

  // Trivially destructible, so it stays usable on a thread whose thread-local
  // destructors have already run (static destructors at exit may still push).
  struct Local {
    T* head;
    int count;

    void Refill() {
      RegisterFlush();
      Global& g = GlobalLists();
      {
        std::lock_guard<std::mutex> lk(g.mu);
        if (!g.lists.empty()) {
          head = g.lists.back().head;
          count = g.lists.back().count;
          g.num_objects -= static_cast<size_t>(count);
          g.lists.pop_back();
          return;
        }
      }
      for (int i = 0; i < kBatch; ++i) {
        T* p = new T();
        p->pool_next = head;
        head = p;
      }
      count = kBatch;
    }

    void Spill() {
      T* first = head;
      T* last = head;
      for (int i = 1; i < kBatch; ++i) last = last->pool_next;
      head = last->pool_next;
      last->pool_next = nullptr;
      count -= kBatch;
      GiveToGlobal(List{first, kBatch});
    }
  };

  static void GiveToGlobal(List list) {
    if (list.head == nullptr) return;
    Global& g = GlobalLists();
    try {
      std::lock_guard<std::mutex> lk(g.mu);
      if (g.num_objects + static_cast<size_t>(list.count) <= kMaxGlobalObjects) {
        g.lists.push_back(list);
        g.num_objects += static_cast<size_t>(list.count);
        return;
      }
    } catch (const std::bad_alloc&) {
      // Called by workers completing ops, which must not throw: free instead.
    }
    for (T* p = list.head; p != nullptr;) {
      T* next = p->pool_next;
      delete p;
      p = next;
    }
  }

  // Hands a thread's leftovers to the global list when the thread exits.
  struct Flush {
    ~Flush() {
      GiveToGlobal(List{local_.head, local_.count});
      local_.head = nullptr;
      local_.count = 0;
    }
  };
  // Called when the local list goes from empty to non-empty (rare), so the
  // thread-local guard is constructed before the thread holds any object.
  static void RegisterFlush() {
    thread_local Flush flush;
    (void)flush;
  }

  static thread_local Local local_;
};

template <typename T>
thread_local typename ObjectPool<T>::Local ObjectPool<T>::local_ = {nullptr, 0};

}  // namespace engine_internal
}  // namespace weft
