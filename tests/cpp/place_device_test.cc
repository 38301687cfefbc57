// The device placement pass (Note [Device placement] in
// core/graph/place_device.cc): group contexts, propagation to ungrouped nodes
// and inputs, one _CrossDeviceCopy per (entry, context), the input graph left
// as it was, and the edges it refuses.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/graph/gradient.h"
#include "core/graph/place_device.h"
#include "core/graph/symbol.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

Symbol Op(const std::string& op, const std::string& name, const std::vector<Symbol>& args,
          std::map<std::string, std::string> attrs = {}) {
  return Symbol::Compose(OpRegistry::Get()->FindOrThrow(op), name, std::move(attrs), args, {});
}

std::map<std::string, std::string> Group(const std::string& g) { return {{"__ctx_group__", g}}; }

const Node* Named(const Placement& p, const std::string& name) {
  const Node* found = nullptr;
  PostOrderDFS(p.heads, [&](const NodePtr& n) {
    if (n->name == name) found = n.get();
  });
  return found;
}

TEST(PlaceDevice, GroupsPropagateAndCopiesJoinContexts) {
  // x, y (no group) -> a = x + y (dev1) -> b = a * a (no group) -> c = b + z (dev2)
  Symbol x = Symbol::Variable("x"), y = Symbol::Variable("y"), z = Symbol::Variable("z", Group("dev2"));
  Symbol a = Op("elemwise_add", "a", {x, y}, Group("dev1"));
  Symbol b = Op("elemwise_mul", "b", {a, a});
  Symbol c = Op("elemwise_add", "c", {b, z}, Group("dev2"));
  const NodePtr c_in = c.outputs[0].node->inputs[0].node;
  const std::map<std::string, Context> g2c = {{"dev1", Context::CPU(1)}, {"dev2", Context::CPU(2)}};
  Placement p = PlaceDevices(c.outputs, Context::CPU(0), g2c, {}, true);

  EXPECT_EQ(p.ctx.at(Named(p, "a")), Context::CPU(1));
  EXPECT_EQ(p.ctx.at(Named(p, "b")), Context::CPU(1));  // forward: its first placed input's context
  EXPECT_EQ(p.ctx.at(Named(p, "c")), Context::CPU(2));
  EXPECT_EQ(p.ctx.at(Named(p, "x")), Context::CPU(1));  // backward: its reader's context
  EXPECT_EQ(p.ctx.at(Named(p, "z")), Context::CPU(2));  // its own group
  ASSERT_EQ(p.copies, 1u);  // b (cpu(1)) -> c (cpu(2)); a is read twice on cpu(1), copied never
  const Node* cn = Named(p, "c");
  EXPECT_EQ(cn->inputs[0].node->op->name, "_CrossDeviceCopy");
  EXPECT_EQ(p.ctx.at(cn->inputs[0].node.get()), Context::CPU(2));
  EXPECT_EQ(p.origin.at(cn->inputs[0].node.get())->name, "b");
  EXPECT_EQ(c.outputs[0].node->inputs[0].node, c_in);  // the user's graph is untouched
  EXPECT_NE(cn, c.outputs[0].node.get());
}

TEST(PlaceDevice, BoundArraysFixVariablesAndOneCopyServesEveryReader) {
  Symbol x = Symbol::Variable("x");
  Symbol a = Op("elemwise_mul", "a", {x, x}, Group("dev1"));
  Symbol b = Op("elemwise_add", "b", {a, x}, Group("dev1"));
  Placement p = PlaceDevices(b.outputs, Context::CPU(0), {{"dev1", Context::CPU(1)}}, {{"x", Context::CPU(3)}},
                             true);
  EXPECT_EQ(p.ctx.at(Named(p, "x")), Context::CPU(3));
  EXPECT_EQ(p.copies, 1u);  // x is copied to cpu(1) once, for all three reads
  const Node* an = Named(p, "a");
  EXPECT_EQ(an->inputs[0].node, an->inputs[1].node);
  EXPECT_EQ(Named(p, "b")->inputs[1].node, an->inputs[0].node);
}

TEST(PlaceDevice, WithoutGroupsNothingMoves) {
  Symbol x = Symbol::Variable("x");
  Symbol a = Op("elemwise_mul", "a", {x, x}, Group("dev9"));  // a group group2ctx does not name
  Placement p = PlaceDevices(a.outputs, Context::CPU(0), {{"dev1", Context::CPU(1)}}, {}, true);
  EXPECT_EQ(p.copies, 0u);
  EXPECT_EQ(p.heads[0].node, a.outputs[0].node);
  EXPECT_EQ(p.ctx.at(a.outputs[0].node.get()), Context::CPU(0));
}

TEST(PlaceDevice, RefusesGpuEdgesAndInPlaceInputsElsewhere) {
  Symbol x = Symbol::Variable("x");
  Symbol a = Op("elemwise_mul", "a", {x, x}, Group("dev1"));
  try {
    PlaceDevices(a.outputs, Context::CPU(0), {{"dev1", Context::GPU(0)}}, {{"x", Context::CPU(0)}}, true);
    FAIL() << "an edge from cpu(0) to gpu(0) was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("CPU contexts only"), std::string::npos) << e.what();
  }
  Symbol bn = Op("BatchNorm", "bn", {x}, Group("dev1"));
  try {
    PlaceDevices(bn.outputs, Context::CPU(0), {{"dev1", Context::CPU(1)}},
                 {{"x", Context::CPU(1)}, {"bn_gamma", Context::CPU(1)}, {"bn_beta", Context::CPU(1)},
                  {"bn_moving_mean", Context::CPU(0)}, {"bn_moving_var", Context::CPU(1)}},
                 true);
    FAIL() << "BatchNorm's moving mean on another context was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("writes its input 'bn_moving_mean'"), std::string::npos) << e.what();
  }
}

TEST(PlaceDevice, InputsGoToTheirGroupElseTheDefault) {  // MXNet's simple_bind
  Symbol x = Symbol::Variable("x"), w = Symbol::Variable("w", Group("dev1"));
  Symbol a = Op("elemwise_mul", "a", {x, w}, Group("dev1"));
  Symbol v = Symbol::Variable("v", Group("dev9"));
  Symbol b = Op("elemwise_add", "b", {a, v}, Group("dev1"));
  auto in = PlaceInputs(b.outputs, Context::CPU(0), {{"dev1", Context::CPU(1)}});
  EXPECT_EQ(in.size(), 3u);
  EXPECT_EQ(in.at("x"), Context::CPU(0));  // read by dev1, but of no group
  EXPECT_EQ(in.at("w"), Context::CPU(1));
  EXPECT_EQ(in.at("v"), Context::CPU(0));  // a group group2ctx does not name
}

TEST(PlaceDevice, GradientNodesKeepTheForwardGroup) {
  Symbol x = Symbol::Variable("x");
  Symbol a = Op("elemwise_mul", "a", {x, x}, Group("dev1"));
  Symbol s = Op("sum", "s", {a}, Group("dev2"));
  NodeEntry head{Node::Variable("head"), 0, 0};
  std::vector<NodeEntry> grads = BuildGradient(s.outputs, {head}, {x.outputs[0]});
  std::map<std::string, int> groups;
  PostOrderDFS(grads, [&](const NodePtr& n) {
    auto g = n->attrs.find("__ctx_group__");
    if (!n->is_variable() && g != n->attrs.end()) ++groups[g->second];
  });
  EXPECT_GT(groups["dev1"], 0);  // a's backward
  EXPECT_GT(groups["dev2"], 0);  // s's backward (a broadcast of the head gradient)
}

}  // namespace
}  // namespace weft
