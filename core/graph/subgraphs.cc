#include "core/graph/subgraphs.h"

#include <string>
#include <utility>

namespace weft {

bool IsSubgraphOp(const OpDef& op) { return op.has_subgraphs; }

std::shared_ptr<const SubgraphList> NodeSubgraphs(const Node& n) {
  if (n.is_variable() || !IsSubgraphOp(*n.op) || !n.info) return nullptr;
  return std::static_pointer_cast<const SubgraphList>(n.info);
}

void SetNodeSubgraphs(Node* n, std::shared_ptr<const SubgraphList> graphs) {
  n->info = std::const_pointer_cast<SubgraphList>(std::move(graphs));
  n->ParseParams();
}

std::shared_ptr<const SubgraphList> ParamsSubgraphs(const Params& p) {
  if (p.op() == nullptr || !IsSubgraphOp(*p.op())) return nullptr;
  return std::static_pointer_cast<const SubgraphList>(p.attached());
}

}  // namespace weft
