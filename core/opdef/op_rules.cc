// The side table of core/opdef/op_rules.h. Written during static initialisation
// (op registration), read-only afterwards, like OpRegistry.
#include "core/opdef/op_rules.h"

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

std::unordered_map<const OpDef*, SameShapeSlots>& SameShapeRules() {
  static auto* m = new std::unordered_map<const OpDef*, SameShapeSlots>();
  return *m;
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

const SameShapeSlots& SameShapeOf(const OpDef& op) {
  static const SameShapeSlots* const kNone = new SameShapeSlots();
  static const SameShapeSlots* const kAll = new SameShapeSlots(SameShapeSlots::All());
  const auto& m = SameShapeRules();
  auto it = m.find(&op);
  if (it != m.end()) return it->second;
  return op.infer_shape ? *kNone : *kAll;
}

void SetSameShape(const OpDef& op, SameShapeSlots slots) { SameShapeRules()[&op] = std::move(slots); }

bool SetSameShape(const std::string& op_name, SameShapeSlots slots) {
  SetSameShape(OpRegistry::Get()->FindOrThrow(op_name), std::move(slots));
  return true;
}

}  // namespace weft
