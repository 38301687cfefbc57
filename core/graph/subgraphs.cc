#include "core/graph/subgraphs.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace weft {
namespace {
struct Table {
  std::mutex mu;
  uint64_t next = 1;
  // Strong references: a pushed kernel owns its Params, not the node, and may
  // run after the graph that made it is gone (an executor freed with work in
  // flight). Each list is a few small graphs, made once per control-flow node.
  std::unordered_map<uint64_t, std::shared_ptr<const SubgraphList>> by_id;
  std::unordered_map<const SubgraphList*, uint64_t> id_of;
};
Table& Get() {
  static auto* t = new Table();  // leaked: kernels may run at exit
  return *t;
}
}  // namespace

bool IsSubgraphOp(const OpDef& op) {
  const std::string& n = op.name;
  return n == "_foreach" || n == "_while_loop" || n == "_cond" || n == "_backward_foreach" ||
         n == "_backward_while_loop" || n == "_backward_cond";
}

std::shared_ptr<const SubgraphList> NodeSubgraphs(const Node& n) {
  if (n.is_variable() || !IsSubgraphOp(*n.op) || !n.info) return nullptr;
  return std::static_pointer_cast<const SubgraphList>(n.info);
}

void SetNodeSubgraphs(Node* n, std::shared_ptr<const SubgraphList> graphs) {
  n->info = std::const_pointer_cast<SubgraphList>(std::move(graphs));
  n->ParseParams();
}

std::string SubgraphsId(const std::shared_ptr<const SubgraphList>& graphs) {
  Table& t = Get();
  std::lock_guard<std::mutex> lk(t.mu);
  auto it = t.id_of.find(graphs.get());
  if (it != t.id_of.end()) return std::to_string(it->second);
  const uint64_t id = t.next++;
  t.by_id[id] = graphs;
  t.id_of[graphs.get()] = id;
  return std::to_string(id);
}

std::shared_ptr<const SubgraphList> ParamsSubgraphs(const Params& p) {
  for (const auto& kv : p.raw()) {
    if (kv.first != kSubgraphsAttr) continue;
    Table& t = Get();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.by_id.find(std::stoull(kv.second));
    return it == t.by_id.end() ? nullptr : it->second;
  }
  return nullptr;
}

}  // namespace weft
