// The side table of core/opdef/dynamic_shape.h, written during op registration
// and read-only afterwards (like OpRegistry).
#include "core/opdef/dynamic_shape.h"

#include <unordered_map>
#include <utility>

namespace weft {
namespace {

std::unordered_map<const OpDef*, DynamicShapeRule>& Rules() {
  static auto* m = new std::unordered_map<const OpDef*, DynamicShapeRule>();
  return *m;
}

}  // namespace

const DynamicShapeRule* FindDynamicShapeRule(const OpDef& op) {
  const auto& m = Rules();
  if (m.empty()) return nullptr;
  auto it = m.find(&op);
  return it == m.end() ? nullptr : &it->second;
}

void SetDynamicShapeRule(const OpDef& op, DynamicShapeRule rule) { Rules()[&op] = std::move(rule); }

}  // namespace weft
