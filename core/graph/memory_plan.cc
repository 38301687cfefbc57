// The memory planning pass; see memory_plan.h and docs/DESIGN.md "Memory planning".
#include "core/graph/memory_plan.h"

#include "core/base/checked_math.h"

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "core/base/error.h"

namespace weft {

PlanStrategy ParsePlanStrategy(const std::string& s) {
  if (s == "naive") return PlanStrategy::kNaive;
  if (s == "inplace") return PlanStrategy::kInplace;
  if (s == "coshare") return PlanStrategy::kCoShare;
  if (s == "both") return PlanStrategy::kBoth;
  WEFT_THROW(kInvalidArgument) << "memory plan strategy '" << s << "': expected one of naive, inplace, coshare, both";
}

const char* PlanStrategyName(PlanStrategy s) {
  switch (s) {
    case PlanStrategy::kNaive: return "naive";
    case PlanStrategy::kInplace: return "inplace";
    case PlanStrategy::kCoShare: return "coshare";
    case PlanStrategy::kBoth: return "both";
  }
  return "?";
}

PlanStrategy DefaultPlanStrategy() {
  const char* v = std::getenv("WEFT_MEMORY_PLAN");
  if (v == nullptr || *v == '\0') return PlanStrategy::kBoth;
  return ParsePlanStrategy(v);
}

EntryLifetimes ComputeLifetimes(const IndexedGraph& g) {
  EntryLifetimes lt;
  lt.first.assign(g.num_entries(), 0);
  lt.last.assign(g.num_entries(), 0);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    uint32_t begin = g.row_ptr()[nid], end = g.row_ptr()[nid + 1];
    for (uint32_t e = begin; e < end; ++e) lt.first[e] = lt.last[e] = static_cast<int64_t>(nid);
    for (const auto& in : g[nid].inputs) {
      uint32_t e = g.entry_id(in);
      lt.last[e] = std::max(lt.last[e], static_cast<int64_t>(nid));
    }
  }
  for (const auto& out : g.outputs()) lt.last[g.entry_id(out)] = static_cast<int64_t>(g.num_nodes());
  return lt;
}

std::vector<int64_t> EntryBytes(const IndexedGraph& g, const ShapeInference& shapes, const TypeInference& types) {
  std::vector<int64_t> bytes(g.num_entries(), 0);
  for (size_t e = 0; e < bytes.size(); ++e) {
    if (e >= shapes.entry.size() || e >= types.entry.size() || !shapes.entry[e].known()) continue;
    bytes[e] = CheckedBytes(shapes.entry[e].Size(), DTypeSize(types.entry[e]), "memory plan: entry of shape " +
                                                                                    shapes.entry[e].ToString());
  }
  return bytes;
}

namespace {

// Visits each distinct input entry of a node once. A node may read one entry
// at several positions; remembering which node saw an entry last keeps this
// linear in the inputs (a fused backward chain has one node with thousands).
class DistinctInputs {
 public:
  explicit DistinctInputs(const IndexedGraph& g) : g_(g), seen_by_(g.num_entries(), kNobody) {}
  template <typename Fn>
  void ForEach(size_t nid, Fn fn) {
    for (const auto& in : g_[nid].inputs) {
      const uint32_t e = g_.entry_id(in);
      if (seen_by_[e] == nid) continue;
      seen_by_[e] = nid;
      fn(e);
    }
  }

 private:
  static constexpr size_t kNobody = SIZE_MAX;
  const IndexedGraph& g_;
  std::vector<size_t> seen_by_;
};

// Per entry: the distinct nodes that read it, plus one for a graph output
// (a reader that never runs, so an output is never released).
std::vector<int> DistinctReaders(const IndexedGraph& g) {
  std::vector<int> readers(g.num_entries(), 0);
  DistinctInputs distinct(g);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) distinct.ForEach(nid, [&](uint32_t e) { ++readers[e]; });
  for (const auto& out : g.outputs()) readers[g.entry_id(out)] += 1;
  return readers;
}

// Note [Best-fit free list]
// Storages released by their last reader wait in a multimap keyed by size.
// A request takes the smallest free block of at least its size (not more than
// kMatchRange times larger, so a tiny entry does not pin a huge block); failing
// that, the largest smaller block within kMatchRange, grown to the request
// (nnvm's GraphAllocator: a block ends at the largest size placed in it);
// failing that, a new storage. This is the "entries the schedule orders may
// share" heuristic over the plain topological order (num_colors == 1, what
// MXNet's executor does by default). With num_colors = k > 1 a block released
// by a node is reused only by a node of the same colour (Note [Path colouring]).
class StoragePool {
 public:
  static constexpr int64_t kMatchRange = 16;

  int Request(int64_t bytes, bool reuse, int color) {
    if (reuse && !free_.empty()) {
      auto lb = free_.lower_bound(bytes);
      for (auto it = lb; it != free_.end() && it->first <= bytes * kMatchRange; ++it)
        if (it->second.second == color) return Take(it, bytes);
      for (auto it = lb; it != free_.begin();) {
        --it;  // smaller blocks, largest first
        if (it->first * kMatchRange < bytes) break;
        if (it->second.second == color) return Take(it, bytes);
      }
    }
    bytes_.push_back(bytes);
    return static_cast<int>(bytes_.size()) - 1;
  }
  // `color`: the colour of the node whose run freed the block.
  void Release(int sid, int color) { free_.emplace(bytes_[static_cast<size_t>(sid)], std::make_pair(sid, color)); }
  const std::vector<int64_t>& bytes() const { return bytes_; }

 private:
  using FreeList = std::multimap<int64_t, std::pair<int, int>>;  // bytes -> (storage id, colour)
  int Take(FreeList::iterator it, int64_t bytes) {
    int sid = it->second.first;
    free_.erase(it);
    bytes_[static_cast<size_t>(sid)] = std::max(bytes_[static_cast<size_t>(sid)], bytes);
    return sid;
  }
  std::vector<int64_t> bytes_;
  FreeList free_;
};

// Note [Path colouring]
// The paper's co-share refinement (nnvm ColorNodeGroup): find the path with
// the most unclaimed operator nodes, give its nodes colour c, repeat for
// c = 0 .. k-2; every other node gets colour k-1. Nodes on one path are
// totally ordered by data dependencies, so blocks passed along a path never
// force an order the graph did not already have and parallel branches keep
// separate buffers; the leftover colour shares as before. Linear per path.
std::vector<int> ColorNodes(const IndexedGraph& g, int num_colors) {
  const size_t n = g.num_nodes();
  std::vector<int> color(n, -1);
  std::vector<int64_t> best(n);
  std::vector<int64_t> prev(n);
  int c = 0;
  for (; c < num_colors - 1; ++c) {
    for (size_t nid = 0; nid < n; ++nid) {
      int64_t reward = (!g[nid].source->is_variable() && color[nid] < 0) ? 1 : 0;
      best[nid] = reward;
      prev[nid] = -1;
      for (const auto& in : g[nid].inputs)
        if (best[in.node_id] + reward > best[nid]) {
          best[nid] = best[in.node_id] + reward;
          prev[nid] = in.node_id;
        }
    }
    int64_t end = static_cast<int64_t>(std::max_element(best.begin(), best.end()) - best.begin());
    if (n == 0 || best[static_cast<size_t>(end)] == 0) break;
    for (int64_t v = end; v >= 0; v = prev[static_cast<size_t>(v)])
      if (!g[static_cast<size_t>(v)].source->is_variable() && color[static_cast<size_t>(v)] < 0)
        color[static_cast<size_t>(v)] = c;
  }
  for (int& x : color)
    if (x < 0) x = c;
  return color;
}

// Note [Lower bound]
// At node t every non-external entry with first <= t <= last is resident: its
// inputs, its outputs (read or not) and everything live across t. The
// verifier lets two of them share only as a declared in-place pair (input a
// read last at t, output b written at t, equal sizes), and one storage holds
// at most one such pair at t (two inputs, or two outputs, of t overlap). So no
// valid plan holds them in fewer bytes than the resident sum less, per output
// of t, its size when some in-place partner exists. The bound is the largest
// such value over the schedule.
int64_t LowerBound(const IndexedGraph& g, const EntryLifetimes& lt, const std::vector<int64_t>& bytes,
                   const std::vector<bool>& is_external) {
  const size_t n = g.num_nodes();
  std::vector<int64_t> resident(n + 1, 0);  // difference array over [first, last]
  for (size_t e = 0; e < g.num_entries(); ++e) {
    if (is_external[e]) continue;
    resident[static_cast<size_t>(lt.first[e])] += bytes[e];
    resident[static_cast<size_t>(std::min<int64_t>(lt.last[e], static_cast<int64_t>(n - 1))) + 1] -= bytes[e];
  }
  int64_t best = 0, running = 0;
  for (size_t t = 0; t < n; ++t) {
    running += resident[t];
    int64_t credit = 0;
    const Node* node = g[t].source;
    if (!node->is_variable()) {
      for (uint32_t out = g.row_ptr()[t]; out < g.row_ptr()[t + 1]; ++out) {
        if (is_external[out]) continue;
        for (const auto& pr : node->op->inplace) {
          size_t i = static_cast<size_t>(pr.first);
          if (pr.second != static_cast<int>(out - g.row_ptr()[t]) || i >= g[t].inputs.size()) continue;
          uint32_t in = g.entry_id(g[t].inputs[i]);
          if (!is_external[in] && lt.last[in] == static_cast<int64_t>(t) && lt.first[in] < lt.last[in] &&
              bytes[in] == bytes[out]) {
            credit += bytes[out];
            break;
          }
        }
      }
    }
    best = std::max(best, running - credit);
  }
  return best;
}

}  // namespace

namespace {

MemoryPlan PlanOnce(const IndexedGraph& g, const std::vector<int64_t>& entry_bytes, const std::vector<bool>& external,
                    PlanStrategy s, int num_colors) {
  WEFT_CHECK(num_colors >= 1, kInvalidArgument) << "PlanMemory: num_colors must be at least 1, got " << num_colors;
  const size_t num_entries = g.num_entries();
  WEFT_CHECK(entry_bytes.size() == num_entries, kInvalidArgument)
      << "PlanMemory: " << entry_bytes.size() << " entry sizes for a graph with " << num_entries << " entries";
  WEFT_CHECK(external.empty() || external.size() == num_entries, kInvalidArgument)
      << "PlanMemory: " << external.size() << " external flags for a graph with " << num_entries << " entries";

  std::vector<bool> is_external(num_entries, false);
  for (size_t e = 0; e < num_entries; ++e) is_external[e] = !external.empty() && external[e];
  for (uint32_t nid : g.arg_nodes()) is_external[g.entry_id(nid, 0)] = true;

  const EntryLifetimes lt = ComputeLifetimes(g);
  const bool inplace = s == PlanStrategy::kInplace || s == PlanStrategy::kBoth;
  const bool coshare = s == PlanStrategy::kCoShare || s == PlanStrategy::kBoth;

  // Pending readers per entry; a graph output is never released.
  std::vector<int> pending = DistinctReaders(g);
  DistinctInputs distinct(g);

  MemoryPlan plan;
  plan.strategy = s;
  plan.storage_id.assign(num_entries, -1);
  plan.offset.assign(num_entries, 0);
  std::vector<uint32_t> owner;  // per storage id: the entry now holding it
  StoragePool pool;
  const std::vector<int> color = ColorNodes(g, coshare ? num_colors : 1);
  int releasing_color = 0;
  auto assign = [&](uint32_t e, int sid) {
    plan.storage_id[e] = sid;
    if (static_cast<size_t>(sid) >= owner.size()) owner.resize(static_cast<size_t>(sid) + 1);
    owner[static_cast<size_t>(sid)] = e;
  };
  auto release = [&](uint32_t e) {
    int sid = plan.storage_id[e];
    if (sid >= 0 && owner[static_cast<size_t>(sid)] == e) pool.Release(sid, releasing_color);
  };

  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    const IndexedGraph::INode& node = g[nid];
    if (node.source->is_variable()) continue;
    const uint32_t begin = g.row_ptr()[nid], end = g.row_ptr()[nid + 1];
    std::vector<bool> taken_input(node.inputs.size(), false);
    releasing_color = color[nid];

    // In-place first (ggml-alloc's rule): the op allows it, this node is the
    // input's only pending reader, the input is ours, and sizes match.
    for (uint32_t out = begin; out < end; ++out) {
      if (is_external[out]) continue;
      if (inplace) {
        for (const auto& pr : node.source->op->inplace) {
          size_t i = static_cast<size_t>(pr.first);
          if (pr.second != static_cast<int>(out - begin) || i >= node.inputs.size() || taken_input[i]) continue;
          uint32_t in = g.entry_id(node.inputs[i]);
          int sid = plan.storage_id[in];
          if (is_external[in] || sid < 0 || pending[in] != 1 || entry_bytes[in] != entry_bytes[out] ||
              owner[static_cast<size_t>(sid)] != in)
            continue;
          // The same input entry may sit at several positions; it is handed over once.
          for (size_t j = 0; j < node.inputs.size(); ++j)
            if (g.entry_id(node.inputs[j]) == in) taken_input[j] = true;
          assign(out, sid);
          break;
        }
      }
      if (plan.storage_id[out] < 0) assign(out, pool.Request(entry_bytes[out], coshare, color[nid]));
    }

    // Readers done: inputs whose last reader this was go back to the pool
    // (unless an output took their storage over), then outputs nobody reads.
    distinct.ForEach(nid, [&](uint32_t in) {
      if (--pending[in] == 0) release(in);
    });
    for (uint32_t out = begin; out < end; ++out)
      if (pending[out] == 0) release(out);
  }

  plan.storage_bytes = pool.bytes();
  plan.total_bytes = 0;
  for (int64_t b : plan.storage_bytes) plan.total_bytes += b;
  plan.lower_bound_bytes = LowerBound(g, lt, entry_bytes, is_external);
  return plan;
}

// Note [Offline best fit by size]
// The walk above decides online, in schedule order, so an early small entry
// can claim a block that a later large one then has to grow. Knowing every
// lifetime up front allows the offline order instead (TFLite's "greedy by
// size"): in-place chains are first merged into one interval (the same rule
// as the walk), then intervals are placed largest first. Two placements:
//  * buffers: into the smallest existing buffer none of whose intervals
//    overlaps in time (sizes only decrease, so no buffer grows);
//  * packed: one arena, at the lowest-waste gap of byte offsets left free by
//    the intervals that overlap in time (Note [One arena] in the executor
//    says what sharing one engine var costs). Offsets are 64-byte aligned.
// Both are valid by construction; the checker verifies them like any plan.
struct Interval {
  int64_t first, last, bytes;
};

// Note [Offline placement budget]
// Both placements below compare each group with groups placed before it
// (buffers: with every buffer; packed: with every placed group, to find those
// overlapping in time), which is quadratic where many groups are live at once:
// a deep chain with its backward keeps every forward output live until its
// gradient runs, and 20,000 relus took 98 s here. The offline orders are only
// candidates that kBoth and kCoShare compare with the online walk (which is
// n log n), so a placement that needs more than kPlacementBudget comparisons
// (plus 64 per group) stops and is left out, and kBoth keeps the best of
// the rest. Graphs of up to 2,000 planned groups always stay below it (all
// live at once: 4.5 n^2 comparisons), larger ones unless most are.
constexpr int64_t kPlacementBudget = 20000000;

// Groups of entries that an in-place chain puts in one place, with their
// merged lifetimes; group[e] = -1 for entries that are not planned.
std::vector<Interval> GroupEntries(const IndexedGraph& g, const std::vector<int64_t>& entry_bytes,
                                   const std::vector<bool>& is_external, const EntryLifetimes& lt, bool inplace,
                                   std::vector<int>* group) {
  const size_t num_entries = g.num_entries();
  const std::vector<int> readers = DistinctReaders(g);
  group->assign(num_entries, -1);
  std::vector<Interval> groups;
  std::vector<bool> handed(num_entries, false);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    const IndexedGraph::INode& node = g[nid];
    if (node.source->is_variable()) continue;
    const uint32_t begin = g.row_ptr()[nid], end = g.row_ptr()[nid + 1];
    for (uint32_t out = begin; out < end; ++out) {
      if (is_external[out]) continue;
      if (inplace) {
        for (const auto& pr : node.source->op->inplace) {
          size_t i = static_cast<size_t>(pr.first);
          if (pr.second != static_cast<int>(out - begin) || i >= node.inputs.size()) continue;
          uint32_t in = g.entry_id(node.inputs[i]);
          if (is_external[in] || (*group)[in] < 0 || handed[in] || readers[in] != 1 ||
              entry_bytes[in] != entry_bytes[out] || lt.last[in] != static_cast<int64_t>(nid))
            continue;
          handed[in] = true;
          (*group)[out] = (*group)[in];
          Interval& iv = groups[static_cast<size_t>((*group)[in])];
          iv.last = std::max(iv.last, lt.last[out]);
          break;
        }
      }
      if ((*group)[out] < 0) {
        (*group)[out] = static_cast<int>(groups.size());
        groups.push_back(Interval{lt.first[out], lt.last[out], entry_bytes[out]});
      }
    }
  }
  return groups;
}

// Empty when the placement would exceed its budget (Note [Offline placement budget]).
std::optional<MemoryPlan> PlanBySize(const IndexedGraph& g, const std::vector<int64_t>& entry_bytes,
                                     const std::vector<bool>& external, bool inplace, bool packed) {
  const size_t num_entries = g.num_entries();
  std::vector<bool> is_external(num_entries, false);
  for (size_t e = 0; e < num_entries; ++e) is_external[e] = !external.empty() && external[e];
  for (uint32_t nid : g.arg_nodes()) is_external[g.entry_id(nid, 0)] = true;
  const EntryLifetimes lt = ComputeLifetimes(g);
  std::vector<int> group;
  const std::vector<Interval> groups = GroupEntries(g, entry_bytes, is_external, lt, inplace, &group);

  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return groups[a].bytes > groups[b].bytes; });
  std::vector<int> group_sid(groups.size(), -1);
  std::vector<int64_t> group_offset(groups.size(), 0);
  std::vector<int64_t> storage_bytes;
  const int64_t budget = kPlacementBudget + 64 * static_cast<int64_t>(groups.size());
  int64_t work = 0;
  if (!packed) {
    std::vector<std::map<int64_t, int64_t>> busy;  // per buffer: first -> last of its groups
    for (size_t gi : order) {
      const Interval& iv = groups[gi];
      int best = -1;
      work += static_cast<int64_t>(storage_bytes.size());
      if (work > budget) return std::nullopt;
      for (size_t sid = 0; sid < storage_bytes.size(); ++sid) {
        if (best >= 0 && storage_bytes[sid] >= storage_bytes[static_cast<size_t>(best)]) continue;
        auto next = busy[sid].upper_bound(iv.last);  // first interval starting after this one ends
        if (next != busy[sid].begin() && std::prev(next)->second >= iv.first) continue;  // overlaps
        best = static_cast<int>(sid);
      }
      if (best < 0) {
        best = static_cast<int>(storage_bytes.size());
        storage_bytes.push_back(iv.bytes);
        busy.emplace_back();
      }
      busy[static_cast<size_t>(best)][iv.first] = iv.last;
      group_sid[gi] = best;
    }
  } else {
    constexpr int64_t kAlign = 64;
    int64_t arena = 0;
    std::vector<size_t> placed;
    std::vector<std::pair<int64_t, int64_t>> busy;  // (offset, end) of placed groups overlapping in time
    for (size_t gi : order) {
      const Interval& iv = groups[gi];
      const int64_t need = (iv.bytes + kAlign - 1) / kAlign * kAlign;
      busy.clear();
      work += static_cast<int64_t>(placed.size());
      if (work > budget) return std::nullopt;
      for (size_t pj : placed) {
        const Interval& o = groups[pj];
        if (o.last < iv.first || iv.last < o.first) continue;
        busy.emplace_back(group_offset[pj], group_offset[pj] + (o.bytes + kAlign - 1) / kAlign * kAlign);
      }
      work += static_cast<int64_t>(busy.size()) * 8;  // the sort, roughly
      if (work > budget) return std::nullopt;
      std::sort(busy.begin(), busy.end());
      int64_t best = -1, best_gap = 0, cursor = 0;
      for (const auto& b : busy) {
        const int64_t gap = b.first - cursor;
        if (gap >= need && (best < 0 || gap < best_gap)) {
          best = cursor;
          best_gap = gap;
        }
        cursor = std::max(cursor, b.second);
      }
      if (best < 0) best = cursor;
      group_offset[gi] = best;
      group_sid[gi] = 0;
      arena = std::max(arena, best + need);
      placed.push_back(gi);
    }
    if (!groups.empty()) storage_bytes.push_back(arena);
  }

  MemoryPlan plan;
  plan.storage_id.assign(num_entries, -1);
  plan.offset.assign(num_entries, 0);
  for (size_t e = 0; e < num_entries; ++e)
    if (group[e] >= 0) {
      plan.storage_id[e] = group_sid[static_cast<size_t>(group[e])];
      plan.offset[e] = group_offset[static_cast<size_t>(group[e])];
    }
  plan.storage_bytes = storage_bytes;
  for (int64_t b : storage_bytes) plan.total_bytes += b;
  plan.lower_bound_bytes = LowerBound(g, lt, entry_bytes, is_external);
  return plan;
}

}  // namespace

// Note [Both is the better of two walks]
// Greedy in-place reuse is not monotone with best fit: handing a block to an
// output keeps it busy, and a later request may then grow a different block
// (seen on an MLP backward with unpinned outputs: +1 KiB over coshare alone).
// The walks are cheap, so kBoth runs each (and the offline order) and keeps
// the smallest plan; the result is never worse than kCoShare or kInplace.
MemoryPlan PlanMemory(const IndexedGraph& g, const std::vector<int64_t>& entry_bytes, const std::vector<bool>& external,
                      PlanStrategy s, int num_colors) {
  MemoryPlan plan = PlanOnce(g, entry_bytes, external, s, num_colors);
  if (s == PlanStrategy::kNaive || s == PlanStrategy::kInplace) return plan;
  // Co-sharing also tries the offline order (Note [Offline best fit by size]);
  // path colouring is an online constraint, so only without it.
  std::vector<MemoryPlan> others;
  auto offer = [&](std::optional<MemoryPlan> p) {
    if (p) others.push_back(std::move(*p));
  };
  if (num_colors == 1)
    for (bool packed : {false, true}) {
      offer(PlanBySize(g, entry_bytes, external, false, packed));
      if (s == PlanStrategy::kBoth) offer(PlanBySize(g, entry_bytes, external, true, packed));
    }
  if (s == PlanStrategy::kBoth)
    for (PlanStrategy alt : {PlanStrategy::kCoShare, PlanStrategy::kInplace})
      others.push_back(PlanOnce(g, entry_bytes, external, alt, num_colors));
  for (MemoryPlan& other : others)
    if (other.total_bytes < plan.total_bytes) plan = std::move(other);
  plan.strategy = s;
  return plan;
}

}  // namespace weft
