// The side table of core/op/op_rules.h. Written during static initialisation
// (op registration), read-only afterwards, like OpRegistry.
#include "core/op/op_rules.h"

#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace weft {
namespace {

std::unordered_map<const OpDef*, std::function<std::vector<int>(const Params&)>>& MutateRules() {
  static auto* m = new std::unordered_map<const OpDef*, std::function<std::vector<int>(const Params&)>>();
  return *m;
}
std::unordered_set<const OpDef*>& FreeAttributeOps() {
  static auto* s = new std::unordered_set<const OpDef*>();
  return *s;
}

}  // namespace

std::vector<int> MutateInputs(const OpDef& op, const Params& p) {
  const auto& m = MutateRules();
  if (!m.empty()) {
    auto it = m.find(&op);
    if (it != m.end()) return it->second(p);
  }
  return op.mutate_inputs;
}

void SetMutateInputsRule(const OpDef& op, std::function<std::vector<int>(const Params&)> rule) {
  MutateRules()[&op] = std::move(rule);
}

bool TakesFreeAttributes(const OpDef& op) {
  const auto& s = FreeAttributeOps();
  return !s.empty() && s.count(&op) != 0;
}

void SetTakesFreeAttributes(const OpDef& op) { FreeAttributeOps().insert(&op); }

}  // namespace weft
