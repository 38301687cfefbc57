// Partial shapes in graph shape inference (Note [Partial shapes] in
// core/graph/infer_node.cc): the merge rule, the legacy conversions, and the
// pass keeping only fully known shapes in ShapeInference::entry.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/graph/infer.h"
#include "core/graph/partial_shape.h"
#include "core/graph/symbol.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

constexpr int64_t U = kUnknownDim;

Symbol Op(const std::string& op, const std::string& name, const std::vector<Symbol>& args,
          std::map<std::string, std::string> attrs = {}) {
  return Symbol::Compose(OpRegistry::Get()->FindOrThrow(op), name, std::move(attrs), args, {});
}

TEST(PartialShape, MergeFillsUnknownDimsAndRejectsConflicts) {
  Shape a{U, 3};
  EXPECT_EQ(MergeShape(&a, Shape{2, U}), MergeResult::kChanged);
  EXPECT_EQ(a, (Shape{2, 3}));
  EXPECT_EQ(MergeShape(&a, Shape{2, 3}), MergeResult::kSame);
  EXPECT_EQ(MergeShape(&a, Shape{4, 3}), MergeResult::kConflict);
  EXPECT_EQ(a, (Shape{2, 3}));  // unchanged by a conflict
  EXPECT_EQ(MergeShape(&a, Shape{2, 3, 1}), MergeResult::kConflict);
  Shape u = Shape::Unknown();
  EXPECT_EQ(MergeShape(&u, Shape{U, 5}), MergeResult::kChanged);
  EXPECT_EQ(u, (Shape{U, 5}));
  EXPECT_EQ(MergeShape(&u, Shape::Unknown()), MergeResult::kSame);
}

TEST(PartialShape, LegacyConversions) {
  EXPECT_EQ(FromLegacyShape(Shape{0, 3}), (Shape{U, 3}));
  EXPECT_EQ(FromLegacyShape(Shape{}), Shape{});  // a 0-d shape stays known
  EXPECT_EQ(ToLegacyShape(Shape{U, 3}), (Shape{0, 3}));
  EXPECT_FALSE(FullyKnown(Shape{U, 3}));
  EXPECT_TRUE(IsPartial(Shape{U, 3}));
  EXPECT_TRUE(FullyKnown(Shape{0, 3}));  // inside the pass a 0 dim is a real zero-size dim
  EXPECT_EQ(PartialShapeString(Shape{U, 3}), "(?, 3)");
  EXPECT_EQ(PartialShapeString(Shape{U}), "(?,)");
}

TEST(PartialShape, PassFlowsBothWaysAndKeepsEntryWhole) {
  Symbol a = Symbol::Variable("a"), b = Symbol::Variable("b");
  Symbol s = Op("elemwise_add", "s", {Op("softmax", "sm", {a}), b});
  IndexedGraph g(s.outputs);
  ShapeInference r = InferShapes(g, {{"b", Shape{2, U}}, {"a", Shape{U, 3}}});
  for (const Shape& e : r.entry) EXPECT_EQ(e, (Shape{2, 3}));
  EXPECT_EQ(r.num_unknown, 0u);

  Symbol fc = Op("FullyConnected", "fc", {a}, {{"num_hidden", "4"}});
  IndexedGraph g2(fc.outputs);
  ShapeInference r2 = InferShapes(g2, {{"a", Shape{U, 3}}});
  const uint32_t out = g2.entry_id(g2.outputs()[0]);
  EXPECT_FALSE(r2.entry[out].known());
  EXPECT_EQ(r2.partial[out], (Shape{U, 4}));
  bool weight_known = false;
  for (uint32_t nid : g2.arg_nodes())
    if (g2[nid].source->name == "fc_weight") {
      weight_known = true;
      EXPECT_EQ(r2.entry[g2.entry_id(nid, 0)], (Shape{4, 3}));
    }
  EXPECT_TRUE(weight_known);
}

TEST(PartialShape, ConflictNamesTheNode) {
  Symbol s = Op("elemwise_add", "the_sum", {Symbol::Variable("a"), Symbol::Variable("b")});
  IndexedGraph g(s.outputs);
  try {
    InferShapes(g, {{"a", Shape{2, 3}}, {"b", Shape{4, U}}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kShape);
    EXPECT_NE(std::string(e.what()).find("the_sum"), std::string::npos) << e.what();
  }
}

// Note [Partial shapes] step 4 with a factor: Reshape(-1) of (16, ?) gives 16
// times the unknown dim, so the output's size fills it; _rnn_param_concat
// (Note [RNN parameter concat]) shares its output between two unknown inputs.
TEST(PartialShape, ReshapeOfPartialFilledFromConcatOutput) {
  Symbol w1 = Symbol::Variable("w1"), w2 = Symbol::Variable("w2"), b = Symbol::Variable("b");
  Symbol cat = Op("_rnn_param_concat", "cat",
                  {Op("Reshape", "r1", {w1}, {{"shape", "(-1,)"}}), Op("Reshape", "r2", {w2}, {{"shape", "(-1,)"}}), b},
                  {{"num_args", "3"}, {"dim", "0"}});
  Symbol s = Op("elemwise_add", "s", {cat, Symbol::Variable("o")});
  IndexedGraph g(s.outputs);
  ShapeInference r = InferShapes(g, {{"w1", Shape{16, U}}, {"w2", Shape{16, U}}, {"b", Shape{8}}, {"o", Shape{104}}});
  EXPECT_EQ(r.num_unknown, 0u);
  for (uint32_t nid : g.arg_nodes()) {
    const std::string& name = g[nid].source->name;
    if (name == "w1" || name == "w2") EXPECT_EQ(r.entry[g.entry_id(nid, 0)], (Shape{16, 3})) << name;
  }
  try {
    InferShapes(g, {{"w1", Shape{16, U}}, {"w2", Shape{16, U}}, {"b", Shape{8}}, {"o", Shape{108}}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kShape);
    EXPECT_NE(std::string(e.what()).find("not divisible by 16"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace weft
