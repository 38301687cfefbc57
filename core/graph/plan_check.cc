// The memory plan verifier (tinygrad style: a checker run after the pass in
// tests). Independent of how PlanMemory decided: it recomputes lifetimes and
// checks every pair of entries placed in one storage.
#include <algorithm>
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
  // Byte ranges in one storage; without sizes every two entries overlap.
  auto overlap = [&](uint32_t a, uint32_t b) {
    if (entry_bytes == nullptr) return true;
    return offset(a) < offset(b) + (*entry_bytes)[b] && offset(b) < offset(a) + (*entry_bytes)[a];
  };
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

  for (size_t sid = 0; sid < by_storage.size(); ++sid) {
    auto& es = by_storage[sid];
    std::sort(es.begin(), es.end(), [&](uint32_t a, uint32_t b) { return lt.first[a] < lt.first[b]; });
    for (size_t j = 0; j < es.size(); ++j) {
      uint32_t b = es[j];
      if (entry_bytes != nullptr) {
        WEFT_CHECK(offset(b) >= 0 && offset(b) + (*entry_bytes)[b] <= p.storage_bytes[sid], kInternal)
            << "memory plan: " << DescribeEntry(g, b, lt) << " needs " << (*entry_bytes)[b] << " bytes at offset "
            << offset(b) << " but storage " << sid << " has " << p.storage_bytes[sid];
      }
      // Earlier-produced entries in this storage must be dead before b is written.
      for (size_t i = 0; i < j; ++i) {
        uint32_t a = es[i];
        if (lt.last[a] < lt.first[b] || !overlap(a, b)) continue;
        bool inplace = lt.last[a] == lt.first[b] && lt.first[a] < lt.first[b] && offset(a) == offset(b) &&
                       DeclaredInplace(g, static_cast<size_t>(lt.first[b]), a, b) &&
                       (entry_bytes == nullptr || (*entry_bytes)[a] == (*entry_bytes)[b]);
        WEFT_CHECK(inplace, kInternal) << "memory plan: " << DescribeEntry(g, a, lt) << " and "
                                       << DescribeEntry(g, b, lt) << " share storage " << sid
                                       << " while both are live";
      }
    }
  }

  int64_t total = 0;
  for (int64_t b : p.storage_bytes) total += b;
  WEFT_CHECK(total == p.total_bytes, kInternal)
      << "memory plan: total_bytes " << p.total_bytes << " but the storages add up to " << total;
}

}  // namespace weft
