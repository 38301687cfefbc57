#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/base/error.h"
#include "core/opdef/np_op_names.h"
#include "core/opdef/op_def.h"

namespace weft {

namespace {

// The table's names for the operator just registered under `name` (Note
// [NumPy-mode op names] in np_op_names.cc): attached now, whichever
// translation unit registers the target, so no alias depends on the order of
// static initialisers. AddAlias calls back here, so a row may name an alias.
void AttachTableAliases(OpRegistry* registry, OpDef* op, const std::string& name) {
  size_t n = 0;
  const OpNameAlias* rows = NumpyModeAliases(&n);
  for (size_t i = 0; i < n; ++i) {
    if (name == rows[i].target) registry->AddAlias(op, rows[i].alias);
  }
}

}  // namespace

OpRegistry* OpRegistry::Get() {
  static OpRegistry* registry = new OpRegistry();  // leaked: used during static init and exit
  return registry;
}

OpDef& OpRegistry::Add(const std::string& name) {
  if (Find(name) != nullptr) {
    // Two declarations of one op is a build defect; fail loudly at load time.
    std::fprintf(stderr, "weft: operator '%s' registered twice\n", name.c_str());
    std::abort();
  }
  ops_.push_back(std::make_unique<OpDef>());
  OpDef* op = ops_.back().get();
  op->name = name;
  by_name_.emplace(name, op);
  AttachTableAliases(this, op, name);
  return *op;
}

void OpRegistry::AddAlias(OpDef* op, const std::string& alias) {
  if (Find(alias) != nullptr) {
    std::fprintf(stderr, "weft: alias '%s' of '%s' already names an operator\n", alias.c_str(),
                 op->name.c_str());
    std::abort();
  }
  op->aliases.push_back(alias);
  by_name_.emplace(alias, op);
  AttachTableAliases(this, op, alias);
}

const OpDef* OpRegistry::Find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

const OpDef& OpRegistry::FindOrThrow(const std::string& name) const {
  const OpDef* op = Find(name);
  WEFT_CHECK(op != nullptr, kNotFound) << "unknown operator '" << name << "'";
  return *op;
}

std::vector<std::string> OpRegistry::ListNames() const {
  std::vector<std::string> names;
  for (const auto& op : ops_) names.push_back(op->name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace weft
