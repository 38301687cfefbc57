#include "core/graph/dce.h"

#include "core/base/error.h"

namespace weft {
namespace {

size_t CountOpNodes(const std::vector<NodeEntry>& heads) {
  size_t n = 0;
  PostOrderDFS(heads, [&](const NodePtr& node) { n += node->is_variable() ? 0 : 1; });
  return n;
}

}  // namespace

std::vector<NodeEntry> PruneHeads(const std::vector<NodeEntry>& heads, const std::vector<size_t>& keep,
                                  DceStats* stats) {
  std::vector<NodeEntry> kept;
  kept.reserve(keep.size());
  for (size_t k : keep) {
    WEFT_CHECK(k < heads.size(), kInvalidArgument)
        << "dead-code elimination: output " << k << " requested, the graph has " << heads.size();
    kept.push_back(heads[k]);
  }
  if (stats != nullptr) {
    stats->nodes_before = CountOpNodes(heads);
    stats->nodes_after = CountOpNodes(kept);
  }
  return kept;
}

std::vector<bool> DeadEntries(const IndexedGraph& g) {
  std::vector<bool> read(g.num_entries(), false);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid)
    for (const auto& in : g[nid].inputs) read[g.entry_id(in)] = true;
  for (const auto& out : g.outputs()) read[g.entry_id(out)] = true;
  std::vector<bool> dead(g.num_entries(), false);
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    if (g[nid].source->is_variable()) continue;
    for (uint32_t e = g.row_ptr()[nid]; e < g.row_ptr()[nid + 1]; ++e) dead[e] = !read[e];
  }
  return dead;
}

}  // namespace weft
