// Upgrading symbol files of older MXNet versions (FORMATS.md B.6), following
// MXNet 1.9.1's src/nnvm/legacy_json_util.cc rule for rule.
#include "core/graph/json_upgrade.h"

#include <algorithm>
#include <string>
#include <utility>

namespace weft {
namespace json_upgrade {
namespace {

const char* const kHiddenKeys[] = {"ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage"};

void Reparse(Node* n) {
  if (!n->is_variable()) n->ParseParams();
}

}  // namespace

void FixHiddenKeys(Node* n) {
  // Take out every key that is, or ends in, a hidden name: they stop the
  // attribute parser. (MXNet's test: rfind(key) at 0, or at the very end.)
  std::vector<std::pair<std::string, std::string>> hidden;
  for (auto it = n->attrs.begin(); it != n->attrs.end();) {
    bool erase = false;
    for (const std::string key : kHiddenKeys) {
      size_t pos = it->first.rfind(key);
      if (pos == 0 || (pos != std::string::npos && pos + key.size() == it->first.size())) {
        hidden.emplace_back(*it);
        erase = true;
        break;
      }
    }
    it = erase ? n->attrs.erase(it) : std::next(it);
  }
  Reparse(n);

  for (const auto& kv : hidden) {
    bool placed = false;
    for (const std::string key : kHiddenKeys) {
      size_t pos = kv.first.rfind(key);
      if (pos == 0 && key.size() == kv.first.size()) {
        n->attrs["__" + key + "__"] = kv.second;
        placed = true;
        break;
      }
      if (pos != std::string::npos && pos > 1 && pos + key.size() == kv.first.size()) {
        // "<input>_<hidden>", e.g. weight_lr_mult: goes to the input variable.
        if (n->is_variable()) break;
        std::vector<std::string> names = n->op->InputNames(n->params);
        auto found = std::find(names.begin(), names.end(), kv.first.substr(0, pos - 1));
        if (found != names.end()) {
          size_t idx = static_cast<size_t>(found - names.begin());
          if (idx < n->inputs.size() && n->inputs[idx].node->is_variable()) {
            n->inputs[idx].node->attrs["__" + key + "__"] = kv.second;
            placed = true;
          }
        }
        break;
      }
    }
    // Not placed: kept as it was (and the final parse decides, as in MXNet).
    if (!placed) n->attrs[kv.first] = kv.second;
  }
}

void UpgradeParsedNodes(const std::vector<NodePtr>& nodes, int version) {
  if (version < kVersion090) {
    // Auxiliary states were not stored before 0.9.0.
    for (const NodePtr& n : nodes) {
      if (n->is_variable()) continue;
      size_t want = static_cast<size_t>(n->op->NumInputs(n->params));
      if (n->inputs.size() >= want) continue;
      std::vector<std::string> names = n->op->InputNames(n->params);
      for (size_t i = n->inputs.size(); i < want && i < names.size(); ++i) {
        NodePtr var = Node::Variable(n->name.empty() ? names[i] : n->name + "_" + names[i]);
        var->attrs = n->attrs;
        n->inputs.push_back(NodeEntry{var, 0, 0});
      }
    }
  }
  if (version < kVersion094) {
    for (const NodePtr& n : nodes) {
      // Operators that set attributes on their input variables when composed
      // (OpDef::set_input_var_attrs, MXNet's FSetInputVarAttrOnCompose: the
      // batch norms give their moving statistics initialisers unless they
      // already have one) do so for a file written before they did.
      if (n->is_variable() || !n->op->set_input_var_attrs) continue;
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        Node* var = n->inputs[i].node.get();
        if (var->is_variable()) n->op->set_input_var_attrs(static_cast<int>(i), &var->attrs);
      }
    }
  }
  if (version < kVersion095) {
    // argmax/argmin axis=-1 meant "flatten" before 0.9.5; now that is axis=None.
    for (const NodePtr& n : nodes) {
      if (n->is_variable() || (n->op->name != "argmax" && n->op->name != "argmin")) continue;
      auto it = n->attrs.find("axis");
      if (it == n->attrs.end() || it->second != "-1") continue;
      n->attrs.erase(it);
      Reparse(n.get());
    }
  }
}

}  // namespace json_upgrade
}  // namespace weft
