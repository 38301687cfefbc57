#include "core/graph/place_device.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "core/base/error.h"
#include "core/opdef/op_rules.h"

namespace weft {

// Note [Device placement]
// MXNet 1.x's PlaceDevice (nnvm/src/pass/place_device.cc, run by
// GraphExecutor::AssignContext), in the same order:
//  1. a node whose `__ctx_group__` is a key of group2ctx runs on that context;
//     a variable bound to an array sits where the array is;
//  2. forward, in topological order: an operator node still unplaced takes the
//     context of its first placed input;
//  3. backward, in reverse order: an unplaced input (a head gradient, an
//     optimizer state: variables the executor allocates itself) takes the
//     context of the node reading it;
//  4. what is left runs on the default context. A group missing from
//     group2ctx is treated as no group (a bind without group2ctx ignores the
//     groups altogether, as MXNet's does).
// simple_bind allocates the arguments, their gradients and the aux states as
// MXNet's MXExecutorSimpleBindEx does (PlaceInputs): on the context of the
// variable's own group, else on the default context, so an ungrouped input
// read by a grouped node is copied over.
// Backward nodes carry their forward node's group (BuildGradient stamps it,
// Note [Gradient nodes keep the device group] in gradient.cc), so a layer's
// gradient runs where the layer ran.
//
// Then every edge whose producer and consumer sit on different contexts gets a
// `_CrossDeviceCopy` node on the consumer's context, one per (entry, context),
// so two readers on one context share one copy. The copy is an ordinary
// prepared engine op (it reads the source's var and writes the copy's), so the
// engine orders it with the producer and every reader without the executor
// waiting. An input the op writes in place (an aux state) cannot be a copy:
// the write would land in the copy, so that is an error naming both. The copy
// kernel runs on its input's device (core/op/shape/cross_device_copy.cc), so
// only copies between CPU contexts (host memory on both sides) are made; an
// edge touching a GPU context is refused naming the node.
namespace {

Context GroupContext(const Node& n, const std::map<std::string, Context>& group2ctx, bool* found) {
  auto a = n.attrs.find("__ctx_group__");
  *found = false;
  if (a == n.attrs.end()) return Context{};
  auto g = group2ctx.find(a->second);
  if (g == group2ctx.end()) return Context{};
  *found = true;
  return g->second;
}

}  // namespace

const OpDef& CrossDeviceCopyOp() {
  static const OpDef& op = OpRegistry::Get()->FindOrThrow("_CrossDeviceCopy");
  return op;
}

Placement PlaceDevices(const std::vector<NodeEntry>& heads, Context default_ctx,
                       const std::map<std::string, Context>& group2ctx,
                       const std::unordered_map<std::string, Context>& var_ctx, bool insert_copies) {
  std::vector<NodePtr> order;
  PostOrderDFS(heads, [&](const NodePtr& n) { order.push_back(n); });
  std::unordered_map<const Node*, size_t> pos;
  for (size_t i = 0; i < order.size(); ++i) pos[order[i].get()] = i;
  std::vector<Context> ctx(order.size());
  std::vector<bool> placed(order.size(), false);

  for (size_t i = 0; i < order.size(); ++i) {  // rule 1
    const Node& n = *order[i];
    bool found = false;
    Context c = GroupContext(n, group2ctx, &found);
    if (n.is_variable()) {
      auto v = var_ctx.find(n.name);
      if (v != var_ctx.end()) {
        c = v->second;
        found = true;
      }
    }
    if (found) {
      ctx[i] = c;
      placed[i] = true;
    }
  }
  for (size_t i = 0; i < order.size(); ++i) {  // rule 2
    if (placed[i] || order[i]->is_variable()) continue;
    for (const NodeEntry& e : order[i]->inputs) {
      const size_t j = pos.at(e.node.get());
      if (placed[j]) {
        ctx[i] = ctx[j];
        placed[i] = true;
        break;
      }
    }
  }
  for (size_t i = order.size(); i-- > 0;) {  // rule 3
    if (!placed[i]) continue;
    for (const NodeEntry& e : order[i]->inputs) {
      const size_t j = pos.at(e.node.get());
      if (!placed[j]) {
        ctx[j] = ctx[i];
        placed[j] = true;
      }
    }
  }

  Placement out;
  for (size_t i = 0; i < order.size(); ++i) out.ctx[order[i].get()] = placed[i] ? ctx[i] : default_ctx;  // rule 4
  if (!insert_copies) {
    out.heads = heads;
    return out;
  }

  // Copies: rebuild every node whose inputs change (new nodes; the input
  // graph may be a user's Symbol and is never modified).
  std::unordered_map<const Node*, NodePtr> now;  // node -> its node in the result
  std::map<std::pair<std::pair<const Node*, uint32_t>, Context>, NodePtr> copy_of;
  const OpDef& copy_op = CrossDeviceCopyOp();
  for (const NodePtr& n : order) {
    if (n->is_variable()) {
      now[n.get()] = n;
      continue;
    }
    const Context here = out.ctx.at(n.get());
    const std::vector<int> mutated = MutateInputs(*n->op, n->params);
    std::vector<NodeEntry> inputs;
    bool changed = false;
    for (size_t k = 0; k < n->inputs.size(); ++k) {
      const NodeEntry& e = n->inputs[k];
      NodeEntry in{now.at(e.node.get()), e.index, e.version};
      const Context there = out.ctx.at(e.node.get());
      if (there != here) {
        WEFT_CHECK(std::find(mutated.begin(), mutated.end(), static_cast<int>(k)) == mutated.end(), kInvalidArgument)
            << "group2ctx: node '" << n->name << "' (" << n->op->name << ") runs on " << here.ToString()
            << " and writes its input '" << e.node->name << "', which is on " << there.ToString()
            << "; place both in one context group";
        WEFT_CHECK(there.is_cpu() && here.is_cpu(), kInvalidArgument)
            << "group2ctx: node '" << n->name << "' (" << n->op->name << ") runs on " << here.ToString()
            << " and reads '" << e.node->name << "' from " << there.ToString()
            << "; copies between contexts are supported between CPU contexts only";
        auto key = std::make_pair(std::make_pair(e.node.get(), e.index), here);
        auto c = copy_of.find(key);
        if (c == copy_of.end()) {
          NodePtr cp = Node::Op(copy_op, e.node->name + "_" + std::to_string(e.index) + "_to_" + here.ToString(), {},
                                {in});
          out.ctx[cp.get()] = here;
          out.origin[cp.get()] = e.node.get();
          ++out.copies;
          c = copy_of.emplace(key, std::move(cp)).first;
        }
        in = NodeEntry{c->second, 0, 0};
      }
      changed = changed || in.node != e.node || in.index != e.index;
      inputs.push_back(std::move(in));
    }
    if (!changed) {
      now[n.get()] = n;
      continue;
    }
    auto fresh = std::make_shared<Node>(*n);
    fresh->inputs = std::move(inputs);
    for (NodePtr& d : fresh->control_deps) d = now.count(d.get()) ? now.at(d.get()) : d;
    out.ctx[fresh.get()] = here;
    out.origin[fresh.get()] = n.get();
    now[n.get()] = std::move(fresh);
  }
  for (const NodeEntry& h : heads) out.heads.push_back(NodeEntry{now.at(h.node.get()), h.index, h.version});
  return out;
}

std::unordered_map<std::string, Context> PlaceInputs(const std::vector<NodeEntry>& heads, Context default_ctx,
                                                     const std::map<std::string, Context>& group2ctx) {
  std::unordered_map<std::string, Context> out;
  PostOrderDFS(heads, [&](const NodePtr& n) {
    if (!n->is_variable()) return;
    bool found = false;
    const Context c = GroupContext(*n, group2ctx, &found);
    out[n->name] = found ? c : default_ctx;
  });
  return out;
}

}  // namespace weft
