// Graphs of any depth (Note [Deep graphs] in core/graph/graph.h): chains far
// deeper than a recursive release survives (one ~Node frame per node
// overflowed the 8 MB stack at about 174,000 nodes) are freed, walked, written
// and read back; loaders refuse graphs over the node limit (Note [Graph size
// limit] in core/graph/json.cc) before building them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/graph/infer.h"
#include "core/graph/json.h"
#include "core/graph/symbol.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

constexpr size_t kDeep = 300000;

NodePtr Relu(const NodePtr& in, size_t i) {
  return Node::Op(OpRegistry::Get()->FindOrThrow("relu"), "r" + std::to_string(i), {}, {NodeEntry{in, 0, 0}});
}

TEST(DeepGraph, ChainIsFreedWithoutRecursion) {
  NodePtr x = Node::Variable("x");
  std::weak_ptr<Node> first;
  NodePtr head = x;
  for (size_t i = 0; i < kDeep; ++i) {
    head = Relu(head, i);
    if (i == 0) first = head;
  }
  x.reset();
  EXPECT_FALSE(first.expired());
  head.reset();  // overflowed the stack before ~Node freed from a worklist
  EXPECT_TRUE(first.expired());
}

TEST(DeepGraph, NodesReadTwiceAndControlDepsAreFreedWithoutRecursion) {
  // Each node reads the one before at two positions: the first reference
  // released is not the last, and the second must still be taken iteratively.
  const OpDef& add = OpRegistry::Get()->FindOrThrow("elemwise_add");
  NodePtr head = Node::Variable("x");
  std::weak_ptr<Node> bottom = head;
  for (size_t i = 0; i < kDeep; ++i) {
    NodeEntry prev{head, 0, 0};
    head = Node::Op(add, "a" + std::to_string(i), {}, {prev, prev});
  }
  head.reset();
  EXPECT_TRUE(bottom.expired());

  // A chain held together only by control dependencies.
  NodePtr dep = Node::Variable("v0");
  bottom = dep;
  for (size_t i = 1; i < kDeep; ++i) {
    NodePtr v = Node::Variable("v" + std::to_string(i));
    v->control_deps.push_back(dep);
    dep = v;
  }
  dep.reset();
  EXPECT_TRUE(bottom.expired());
}

TEST(DeepGraph, DeepChainIsWalkedWrittenAndReadBack) {
  NodePtr head = Node::Variable("x");
  for (size_t i = 0; i < kDeep; ++i) head = Relu(head, i);
  Symbol s;
  s.outputs.push_back(NodeEntry{head, 0, 0});
  head.reset();

  EXPECT_EQ(s.ListArguments(), std::vector<std::string>{"x"});
  IndexedGraph g(s.outputs);
  ASSERT_EQ(g.num_nodes(), kDeep + 1);
  ShapeInference si = InferShapes(g, {{"x", Shape{2, 3}}});
  EXPECT_EQ(si.num_unknown, 0u);
  EXPECT_EQ(si.entry[g.entry_id(g.outputs()[0])], (Shape{2, 3}));

  const std::string text = SaveSymbolJSON(s);
  std::optional<Symbol> back = LoadSymbolJSON(text, "<deep chain>");
  EXPECT_EQ(back->outputs[0].node->name, "r" + std::to_string(kDeep - 1));
  EXPECT_EQ(SaveSymbolJSON(*back), text);
  back.reset();  // both copies are freed here, one after the other
  s.outputs.clear();
}

// A chain of `n` relus after one variable, as a file: n + 1 nodes.
std::string ChainJSON(size_t n) {
  std::string t = "{\"nodes\": [{\"op\": \"null\", \"name\": \"x\", \"inputs\": []}";
  for (size_t i = 1; i <= n; ++i)
    t += ", {\"op\": \"relu\", \"name\": \"r" + std::to_string(i) + "\", \"inputs\": [[" + std::to_string(i - 1) +
         ", 0, 0]]}";
  return t + "], \"arg_nodes\": [0], \"heads\": [[" + std::to_string(n) + ", 0, 0]]}";
}

// Sets WEFT_MAX_GRAPH_NODES (nullptr: unsets it) for one test and restores it.
class MaxNodesEnv {
 public:
  explicit MaxNodesEnv(const char* value) {
    if (const char* v = std::getenv("WEFT_MAX_GRAPH_NODES")) saved_ = v;
    if (value) setenv("WEFT_MAX_GRAPH_NODES", value, 1);
    else unsetenv("WEFT_MAX_GRAPH_NODES");
  }
  ~MaxNodesEnv() {
    if (saved_) setenv("WEFT_MAX_GRAPH_NODES", saved_->c_str(), 1);
    else unsetenv("WEFT_MAX_GRAPH_NODES");
  }

 private:
  std::optional<std::string> saved_;
};

TEST(DeepGraph, LoaderRefusesMoreNodesThanTheLimit) {
  {
    MaxNodesEnv unset(nullptr);
    EXPECT_EQ(MaxGraphNodes(), 10000000u);  // the documented default
  }
  MaxNodesEnv env("5");
  EXPECT_EQ(MaxGraphNodes(), 5u);
  EXPECT_NO_THROW(LoadSymbolJSON(ChainJSON(4), "<five nodes>"));
  try {
    LoadSymbolJSON(ChainJSON(5), "<six nodes>");
    FAIL() << "a graph over the limit loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kIO);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("<six nodes>"), std::string::npos) << msg;
    EXPECT_NE(msg.find("6 nodes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("limit of 5"), std::string::npos) << msg;
    EXPECT_NE(msg.find("WEFT_MAX_GRAPH_NODES"), std::string::npos) << msg;
  }
}

TEST(DeepGraph, BadNodeLimitSettingIsNamed) {
  for (const char* bad : {"lots", "0", "-3", " -3", "12abc", "99999999999999999999999"}) {
    MaxNodesEnv env(bad);
    try {
      LoadSymbolJSON(ChainJSON(1), "<two nodes>");
      FAIL() << "WEFT_MAX_GRAPH_NODES=" << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::kInvalidArgument);
      const std::string msg = e.what();
      EXPECT_NE(msg.find("WEFT_MAX_GRAPH_NODES"), std::string::npos) << msg;
      EXPECT_NE(msg.find(bad), std::string::npos) << msg;
    }
  }
}

}  // namespace
}  // namespace weft
