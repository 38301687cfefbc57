#include "core/graph/subgraphs.h"

#include <string>
#include <utility>

namespace weft {

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

std::shared_ptr<const SubgraphList> ParamsSubgraphs(const Params& p) {
  if (p.op() == nullptr || !IsSubgraphOp(*p.op())) return nullptr;
  return std::static_pointer_cast<const SubgraphList>(p.attached());
}

}  // namespace weft
