// The memory plan verifier (tinygrad style: a checker run after the pass in
// tests). Independent of how PlanMemory decided: it recomputes lifetimes and
// checks every pair of entries placed in one storage.
#include <algorithm>
#include <map>
#include <queue>
#include <utility>
#include <sstream>
#include <vector>

#include "core/base/error.h"
#include "core/graph/memory_plan.h"

namespace weft {

namespace {

std::string DescribeEntry(const IndexedGraph& g, uint32_t e, const EntryLifetimes& lt) {
  // The producing node is the one whose entry range holds e.
  const auto& rp = g.row_ptr();
  size_t nid = static_cast<size_t>(std::upper_bound(rp.begin(), rp.end(), e) - rp.begin()) - 1;
  std::ostringstream os;
  os << "entry " << e << " (output " << (e - rp[nid]) << " of node '" << g[nid].source->name << "', live "
     << lt.first[e] << ".." << lt.last[e] << ")";
  return os.str();
}

// True when node `nid` declares (input i, output o) in-place with input i
// being entry `in` and output o being entry `out`.
bool DeclaredInplace(const IndexedGraph& g, size_t nid, uint32_t in, uint32_t out) {
  const Node* n = g[nid].source;
  if (n->is_variable()) return false;
  for (const auto& pr : n->op->inplace) {
    size_t i = static_cast<size_t>(pr.first);
    if (i < g[nid].inputs.size() && g.entry_id(g[nid].inputs[i]) == in &&
        g.entry_id(static_cast<uint32_t>(nid), static_cast<uint32_t>(pr.second)) == out)
      return true;
  }
  return false;
}

}  // namespace

void CheckMemoryPlan(const IndexedGraph& g, const MemoryPlan& p, const std::vector<int64_t>* entry_bytes) {
  const size_t num_entries = g.num_entries();
  WEFT_CHECK(p.storage_id.size() == num_entries, kInternal)
      << "memory plan: " << p.storage_id.size() << " storage ids for " << num_entries << " entries";
  WEFT_CHECK(p.offset.empty() || p.offset.size() == num_entries, kInternal)
      << "memory plan: " << p.offset.size() << " offsets for " << num_entries << " entries";
  auto offset = [&](uint32_t e) { return p.offset.empty() ? int64_t{0} : p.offset[e]; };
  const EntryLifetimes lt = ComputeLifetimes(g);

  std::vector<std::vector<uint32_t>> by_storage(p.storage_bytes.size());
  for (uint32_t e = 0; e < num_entries; ++e) {
    int sid = p.storage_id[e];
    if (sid < 0) continue;
    WEFT_CHECK(static_cast<size_t>(sid) < p.storage_bytes.size(), kInternal)
        << "memory plan: " << DescribeEntry(g, e, lt) << " has storage id " << sid << " but there are only "
        << p.storage_bytes.size() << " storages";
    by_storage[static_cast<size_t>(sid)].push_back(e);
  }
  for (uint32_t nid : g.arg_nodes()) {
    uint32_t e = g.entry_id(nid, 0);
    WEFT_CHECK(p.storage_id[e] < 0, kInternal)
        << "memory plan: variable " << DescribeEntry(g, e, lt) << " was given storage " << p.storage_id[e];
  }

  // Note [Checking a plan in n log n]
  // Each storage's entries are swept in order of production, keeping those
  // still live in a map by offset. Accepted entries that are live together
  // have disjoint byte ranges or, for an in-place pair, identical ones; so
  // the entries a new one overlaps are the ones starting inside its range
  // plus the group with the largest offset below it. Every overlap found is
  // a conflict or an in-place pair, so the work stays near-linear where
  // comparing all pairs in a storage was quadratic (an in-place chain of n
  // nodes puts all n entries in one storage). Without sizes every range is
  // [0, 1): all live entries in a storage overlap.
  auto range_of = [&](uint32_t e) -> std::pair<int64_t, int64_t> {
    if (entry_bytes == nullptr) return {0, 1};
    return {offset(e), offset(e) + (*entry_bytes)[e]};
  };
  for (size_t sid = 0; sid < by_storage.size(); ++sid) {
    auto& es = by_storage[sid];
    std::sort(es.begin(), es.end(), [&](uint32_t a, uint32_t b) {
      return lt.first[a] != lt.first[b] ? lt.first[a] < lt.first[b] : a < b;
    });
    std::multimap<int64_t, uint32_t> live;  // offset -> entry
    using Ending = std::pair<int64_t, std::multimap<int64_t, uint32_t>::iterator>;  // (last, where in live)
    auto later = [](const Ending& x, const Ending& y) { return x.first > y.first; };
    std::priority_queue<Ending, std::vector<Ending>, decltype(later)> ending(later);
    for (uint32_t b : es) {
      const auto [lo, hi] = range_of(b);
      if (entry_bytes != nullptr) {
        WEFT_CHECK(lo >= 0 && hi <= p.storage_bytes[sid], kInternal)
            << "memory plan: " << DescribeEntry(g, b, lt) << " needs " << (*entry_bytes)[b] << " bytes at offset "
            << lo << " but storage " << sid << " has " << p.storage_bytes[sid];
      }
      if (hi <= lo) continue;  // an empty entry overlaps nothing
      while (!ending.empty() && ending.top().first < lt.first[b]) {
        live.erase(ending.top().second);
        ending.pop();
      }
      // Earlier-produced entries still live must not share b's bytes.
      auto check = [&](uint32_t a) {
        bool inplace = lt.last[a] == lt.first[b] && lt.first[a] < lt.first[b] && offset(a) == offset(b) &&
                       range_of(a) == range_of(b) &&
                       DeclaredInplace(g, static_cast<size_t>(lt.first[b]), a, b);
        WEFT_CHECK(inplace, kInternal) << "memory plan: " << DescribeEntry(g, a, lt) << " and "
                                       << DescribeEntry(g, b, lt) << " share storage " << sid
                                       << " while both are live";
      };
      auto it = live.lower_bound(lo);
      if (it != live.begin()) {
        const int64_t below = std::prev(it)->first;
        for (auto k = live.lower_bound(below); k != it; ++k)
          if (range_of(k->second).second > lo) check(k->second);
      }
      for (; it != live.end() && it->first < hi; ++it) check(it->second);
      ending.emplace(lt.last[b], live.emplace(lo, b));
    }
  }

  int64_t total = 0;
  for (int64_t b : p.storage_bytes) total += b;
  WEFT_CHECK(total == p.total_bytes, kInternal)
      << "memory plan: total_bytes " << p.total_bytes << " but the storages add up to " << total;
}

}  // namespace weft
