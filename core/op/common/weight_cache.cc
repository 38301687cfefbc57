// Note [Weight layout cache] in weight_cache.h.
#include "core/op/common/weight_cache.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <list>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "core/base/env.h"

namespace weft {
namespace weight_cache {
namespace {

struct Entry {
  std::string kind;
  const void* weight = nullptr;
  uint64_t stamp = 0;
  std::vector<float> small;
  std::shared_ptr<const void> value;
  size_t bytes = 0;
};

using Lru = std::list<Entry>;  // most recently used first

struct Cache {
  std::mutex mu;
  Lru lru;
  std::map<std::pair<std::string, const void*>, Lru::iterator> index;
  size_t bytes = 0;
  uint64_t hits = 0;
};

Cache& TheCache() {
  static Cache* c = new Cache;  // never destroyed: kernels may run during exit
  return *c;
}

size_t Budget() {
  static const size_t budget = static_cast<size_t>(std::max(0, GetEnvInt("WEFT_WEIGHT_CACHE_MB", 1024))) << 20;
  return budget;
}

bool Matches(const Entry& e, const Source& src) {
  return e.stamp == src.stamp && e.small.size() == src.small_count &&
         (src.small_count == 0 || std::memcmp(e.small.data(), src.small, src.small_count * sizeof(float)) == 0);
}

// Under c.mu.
void Erase(Cache& c, Lru::iterator it) {
  c.bytes -= it->bytes;
  c.index.erase({it->kind, it->weight});
  c.lru.erase(it);
}

}  // namespace

bool Enabled() { return Budget() > 0; }

std::shared_ptr<const void> FindOrMake(const std::string& kind, const Source& src, size_t bytes,
                                       const std::function<std::shared_ptr<const void>()>& make) {
  if (src.stamp == 0 || src.weight == nullptr || bytes > Budget()) return make();
  Cache& c = TheCache();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto found = c.index.find({kind, src.weight});
    if (found != c.index.end()) {
      if (Matches(*found->second, src)) {
        c.lru.splice(c.lru.begin(), c.lru, found->second);
        ++c.hits;
        return found->second->value;
      }
      Erase(c, found->second);  // made from contents the weight no longer has
    }
  }
  std::shared_ptr<const void> value = make();
  if (!value) return value;
  Entry e;
  e.kind = kind;
  e.weight = src.weight;
  e.stamp = src.stamp;
  if (src.small_count > 0) e.small.assign(src.small, src.small + src.small_count);
  e.value = value;
  e.bytes = bytes;
  std::lock_guard<std::mutex> lock(c.mu);
  auto raced = c.index.find({kind, src.weight});  // another thread made it meanwhile
  if (raced != c.index.end()) Erase(c, raced->second);
  while (!c.lru.empty() && c.bytes + bytes > Budget()) Erase(c, std::prev(c.lru.end()));
  c.lru.push_front(std::move(e));
  c.index.emplace(std::make_pair(kind, src.weight), c.lru.begin());
  c.bytes += bytes;
  return value;
}

void Drop(const std::string& kind, const void* weight) {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mu);
  auto found = c.index.find({kind, weight});
  if (found != c.index.end()) Erase(c, found->second);
}

size_t NumEntries() {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.lru.size();
}

uint64_t Hits() {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.hits;
}

size_t BytesHeld() {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.bytes;
}

void Clear() {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.lru.clear();
  c.index.clear();
  c.bytes = 0;
}

}  // namespace weight_cache
}  // namespace weft
