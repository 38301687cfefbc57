// The rules the passes read of an op are set by its declaration (Note [Op
// attributes on the declaration] in core/opdef/op_def.h): each one reaches the
// op it was declared on, through the readers the passes use, and no other op.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/graph/subgraphs.h"
#include "core/opdef/dynamic_shape.h"
#include "core/opdef/op_def.h"
#include "core/opdef/op_rules.h"

namespace weft {
namespace {

const OpDef& Op(const char* name) { return OpRegistry::Get()->FindOrThrow(name); }

Params Parse(const OpDef& op, const std::vector<std::pair<std::string, std::string>>& attrs) {
  return Params::Parse(op, attrs);
}

// Every registered op with `pred`, by canonical name.
template <typename Pred>
std::set<std::string> OpsWhere(Pred pred) {
  std::set<std::string> names;
  for (const std::string& n : OpRegistry::Get()->ListNames())
    if (pred(*OpRegistry::Get()->Find(n))) names.insert(n);
  return names;
}

TEST(OpAttributes, FusionRolesAreDeclaredOnTheirOps) {
  using R = FusionPattern;
  EXPECT_EQ(OpsWhere([](const OpDef& d) { return d.fusion_pattern.role == R::kLayer; }),
            (std::set<std::string>{"Convolution", "FullyConnected"}));
  EXPECT_EQ(OpsWhere([](const OpDef& d) { return d.fusion_pattern.role == R::kActivation; }),
            (std::set<std::string>{"Activation"}));
  EXPECT_EQ(OpsWhere([](const OpDef& d) { return d.fusion_pattern.role == R::kNorm; }),
            (std::set<std::string>{"BatchNorm"}));
  EXPECT_EQ(OpsWhere([](const OpDef& d) { return d.fusion_pattern.role == R::kResidualSum; }),
            (std::set<std::string>{"elemwise_add"}));
  EXPECT_EQ(OpsWhere([](const OpDef& d) { return d.fusion_pattern.role == R::kElementwiseProgram; }),
            (std::set<std::string>{"_fused_elemwise"}));
  // An alias reaches the same declaration (MXNet's _plus is elemwise_add).
  EXPECT_EQ(Op("_plus").fusion_pattern.role, R::kResidualSum);
  // The fused ops a layer names are registered.
  EXPECT_EQ(OpRegistry::Get()->Find(Op("Convolution").fusion_pattern.with_activation),
            &Op("_fused_convolution_act"));
  EXPECT_EQ(OpRegistry::Get()->Find(Op("Convolution").fusion_pattern.with_norm), &Op("_fused_convolution_bn"));
  EXPECT_EQ(OpRegistry::Get()->Find(Op("FullyConnected").fusion_pattern.with_activation),
            &Op("_fused_fully_connected_act"));
  EXPECT_TRUE(Op("FullyConnected").fusion_pattern.with_norm.empty());
}

TEST(OpAttributes, NormFoldsOnlyForItsConditions) {
  const OpDef& bn = Op("BatchNorm");
  const FusionPattern& f = bn.fusion_pattern;
  EXPECT_TRUE(f.Applies(Parse(bn, {})));
  EXPECT_TRUE(f.Applies(Parse(bn, {{"axis", "1"}, {"eps", "1e-5"}})));
  EXPECT_FALSE(f.Applies(Parse(bn, {{"axis", "3"}})));
  EXPECT_FALSE(f.Applies(Parse(bn, {{"axis", "-1"}})));
  EXPECT_FALSE(f.Applies(Parse(bn, {{"output_mean_var", "True"}})));
  // What the fused op takes over: each is a parameter of both ops.
  EXPECT_EQ(f.carried_params, (std::vector<std::string>{"eps", "momentum", "fix_gamma", "use_global_stats"}));
  for (const std::string& p : f.carried_params) {
    EXPECT_NE(bn.FindParam(p), nullptr) << p;
    EXPECT_NE(Op("_fused_convolution_bn").FindParam(p), nullptr) << p;
  }
  // A pattern without a condition applies to any parameters.
  EXPECT_TRUE(Op("Activation").fusion_pattern.Applies(Parse(Op("Activation"), {{"act_type", "relu"}})));
}

TEST(OpAttributes, SameShapeSlotsOfTheFormerByNameRules) {
  const SameShapeSlots& where = SameShapeOf(Op("where"));
  EXPECT_FALSE(where.all);
  EXPECT_EQ(where.inputs, (std::vector<int>{1, 2}));  // the condition may be 1-D
  EXPECT_EQ(where.outputs, (std::vector<int>{0}));
  for (const char* n : {"clip", "Cast", "add_n", "elemwise_add"}) EXPECT_TRUE(SameShapeOf(Op(n)).all) << n;
  // Data and output only: LeakyReLU's gamma (prelu) has its own shape.
  const SameShapeSlots& leaky = SameShapeOf(Op("LeakyReLU"));
  EXPECT_FALSE(leaky.all);
  EXPECT_EQ(leaky.inputs, (std::vector<int>{0}));
  EXPECT_EQ(leaky.outputs, (std::vector<int>{0}));
  // An op without its own inference shares every slot undeclared; one with its
  // own inference and no declaration shares nothing.
  EXPECT_FALSE(Op("Activation").has_same_shape);
  EXPECT_TRUE(SameShapeOf(Op("Activation")).all);
  const SameShapeSlots& dot = SameShapeOf(Op("dot"));
  EXPECT_TRUE(!dot.all && dot.inputs.empty() && dot.outputs.empty());
  EXPECT_FALSE(Op("dot").has_same_shape);
}

TEST(OpAttributes, MutatedInputsFollowTheParameters) {
  const OpDef& reset = Op("reset_arrays");
  EXPECT_EQ(MutateInputs(reset, Parse(reset, {{"num_arrays", "3"}})), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(MutateInputs(reset, Parse(reset, {{"num_arrays", "1"}})), (std::vector<int>{0}));
  // The fixed list where no rule is declared.
  EXPECT_EQ(MutateInputs(Op("BatchNorm"), Parse(Op("BatchNorm"), {})), (std::vector<int>{3, 4}));
  EXPECT_TRUE(MutateInputs(Op("exp"), Parse(Op("exp"), {})).empty());
  EXPECT_EQ(OpsWhere([](const OpDef& d) { return static_cast<bool>(d.mutate_inputs_fn); }),
            (std::set<std::string>{"Custom", "_fused_convolution_bn", "reset_arrays"}));
}

TEST(OpAttributes, DynamicShapesFreeAttributesAndSubgraphs) {
  EXPECT_EQ(OpsWhere([](const OpDef& d) { return FindDynamicShapeRule(d) != nullptr; }),
            // An image's size comes from its header, np.delete's from its index array's values.
            (std::set<std::string>{"_contrib_boolean_mask", "_cvimdecode", "_cvimread", "_npi_bincount", "_npi_delete",
                                   "_npi_unique", "_npx_nonzero"}));
  EXPECT_EQ(FindDynamicShapeRule(Op("_contrib_boolean_mask"))->reads, (std::vector<int>{1}));
  EXPECT_EQ(OpsWhere(TakesFreeAttributes), (std::set<std::string>{"Custom", "_backward_Custom"}));
  EXPECT_EQ(OpsWhere(IsSubgraphOp), (std::set<std::string>{"_backward_cond", "_backward_foreach",
                                                            "_backward_while_loop", "_cond", "_foreach",
                                                            "_while_loop"}));
}

}  // namespace
}  // namespace weft
