// The device placement pass (MXNet 1.x's PlaceDevice, run by its executor for
// `bind(..., group2ctx=...)`): every node gets a context, and an edge whose two
// ends sit on different contexts gets a `_CrossDeviceCopy` node, so the copy is
// an engine op like any other (ordered by the vars it reads and writes).
// The rules are Note [Device placement] in place_device.cc.
#pragma once
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/context.h"
#include "core/graph/graph.h"

namespace weft {

struct Placement {
  std::vector<NodeEntry> heads;                  // the rewritten graph (the input heads when no copy was needed)
  std::unordered_map<const Node*, Context> ctx;  // every node reachable from heads
  // Each node made by the pass -> the input graph's node it stands for: a
  // rebuilt node's original, a copy's source (so callers can carry per-node
  // facts such as forward/backward across).
  std::unordered_map<const Node*, const Node*> origin;
  size_t copies = 0;  // _CrossDeviceCopy nodes inserted
};

// The op of the copies the pass inserts (`_CrossDeviceCopy`): later passes
// recognise a copy by this op, not by its name.
const OpDef& CrossDeviceCopyOp();

// `group2ctx` maps a `__ctx_group__` attribute value to its context; `var_ctx`
// fixes the context of variables by name (the arrays bound to them). With
// insert_copies false the graph is left as it is and only `ctx` is computed
// (where simple_bind allocates each argument). The input graph's nodes are
// never modified: nodes whose inputs change are copies.
Placement PlaceDevices(const std::vector<NodeEntry>& heads, Context default_ctx,
                       const std::map<std::string, Context>& group2ctx,
                       const std::unordered_map<std::string, Context>& var_ctx, bool insert_copies);

// Where MXNet 1.9.1's simple_bind allocates the inputs of a group2ctx bind
// (MXExecutorSimpleBindEx): a variable whose `__ctx_group__` is a key of
// group2ctx on that context, every other one on default_ctx; by name.
std::unordered_map<std::string, Context> PlaceInputs(const std::vector<NodeEntry>& heads, Context default_ctx,
                                                     const std::map<std::string, Context>& group2ctx);

}  // namespace weft
