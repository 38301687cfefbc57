// Static memory planning (docs/DESIGN.md "Memory planning"): assigns every
// non-external graph entry a storage id so that entries which are never live
// at the same time share a buffer. Two linear-time heuristics, switchable for
// measurement: in-place reuse (an op overwrites an input it declares in-place
// when no one else will read it) and co-sharing (a buffer freed by its last
// reader is reused by a later entry, best fit over the topological schedule).
// Models: tinygrad schedule/memory.py, ggml-alloc.c, nnvm plan_memory.cc.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/graph/infer.h"

namespace weft {

enum class PlanStrategy { kNaive, kInplace, kCoShare, kBoth };

// "naive" | "inplace" | "coshare" | "both"; anything else is kInvalidArgument.
PlanStrategy ParsePlanStrategy(const std::string& s);
const char* PlanStrategyName(PlanStrategy s);
// WEFT_MEMORY_PLAN from the environment; kBoth when unset or empty.
PlanStrategy DefaultPlanStrategy();

struct MemoryPlan {
  std::vector<int> storage_id;          // per entry; -1 = external (never planned)
  std::vector<int64_t> offset;          // per entry: bytes into its storage (0 unless packed)
  std::vector<int64_t> storage_bytes;   // per storage id
  int64_t total_bytes = 0;              // sum of storage_bytes
  int64_t lower_bound_bytes = 0;        // largest live set under the schedule (Note [Lower bound])
  PlanStrategy strategy = PlanStrategy::kBoth;
};

// Lifetimes under the schedule (node ids in topological order): an entry is
// live from its producing node `first` to its last consumer `last`
// (inclusive). An entry nobody reads has last == first; a graph output has
// last == num_nodes (kept past the end of the schedule).
struct EntryLifetimes {
  std::vector<int64_t> first, last;
};
EntryLifetimes ComputeLifetimes(const IndexedGraph& g);

// Bytes of every entry from inferred shapes and dtypes (0 where unknown).
std::vector<int64_t> EntryBytes(const IndexedGraph& g, const ShapeInference& shapes, const TypeInference& types);

// `entry_bytes` has one value per entry. `external` is empty or one flag per
// entry: entries the caller owns (graph outputs it keeps, gradients written
// into user arrays). Variables are always external. External entries get
// storage id -1 and count 0 bytes. kBoth keeps the smaller of the in-place +
// co-share walk and the single-heuristic walks (Note [Both is the better of two walks]).
// Co-sharing is best fit over the topological order; num_colors > 1 applies
// the paper's refinement: the num_colors-1 longest paths are coloured first
// and a freed block is reused only by a node of the colour that freed it, so
// parallel branches keep separate buffers (Note [Path colouring]).
MemoryPlan PlanMemory(const IndexedGraph& g, const std::vector<int64_t>& entry_bytes, const std::vector<bool>& external,
                      PlanStrategy s, int num_colors = 1);

// The verifier (plan_check.cc): throws weft::Error(kInternal) naming both
// entries when two entries whose byte ranges in one storage overlap (without
// entry_bytes: any two in one storage) are live at once (an in-place
// reuse the op declares, where the output's producer is the input's last
// reader, is allowed), when a variable is planned, or — given entry_bytes —
// when a storage is smaller than an entry placed in it or total_bytes is not
// the sum of storage_bytes.
void CheckMemoryPlan(const IndexedGraph& g, const MemoryPlan& p, const std::vector<int64_t>* entry_bytes = nullptr);

}  // namespace weft
