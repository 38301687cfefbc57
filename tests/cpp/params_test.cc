// Parameter parsing against an op schema: types, defaults, None, errors.
#include <gtest/gtest.h>

#include <cmath>

#include "core/base/context.h"
#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/opdef/params_cache.h"

namespace weft {
namespace {

OpDef MakeOp() {
  OpDef op;
  op.name = "test_params";
  op.add_param("axis", ParamType::kInt, "-1", "an int")
      .add_param("scale", ParamType::kFloat, "1.0", "a float")
      .add_param("flag", ParamType::kBool, "False", "a bool")
      .add_enum_param("mode", {"clip", "wrap"}, "clip", "an enum")
      .add_optional_param("begin", ParamType::kShape, "a tuple with None entries")
      .add_param("dtype", ParamType::kDType, "float32", "a dtype")
      .add_required_param("shape", ParamType::kShape, "required");
  return op;
}

TEST(Params, DefaultsAndValues) {
  OpDef op = MakeOp();
  Params p = Params::Parse(op, {{"shape", "(2, 3)"}, {"flag", "True"}, {"begin", "(None, 1)"}});
  EXPECT_EQ(p.GetInt("axis"), -1);
  EXPECT_DOUBLE_EQ(p.GetFloat("scale"), 1.0);
  EXPECT_TRUE(p.GetBool("flag"));
  EXPECT_EQ(p.GetString("mode"), "clip");
  EXPECT_EQ(p.GetTuple("shape"), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(p.GetTuple("begin"), (std::vector<int64_t>{kNoneDim, 1}));
  EXPECT_EQ(p.GetDType("dtype"), DType::kFloat32);
  Params q = Params::Parse(op, {{"shape", "[4]"}, {"begin", "None"}, {"dtype", "'int64'"}, {"__hidden__", "x"}});
  EXPECT_TRUE(q.IsNone("begin"));
  EXPECT_EQ(q.GetDType("dtype"), DType::kInt64);
  EXPECT_EQ(q.GetTuple("shape"), (std::vector<int64_t>{4}));
}

void ExpectError(const OpDef& op, const std::vector<std::pair<std::string, std::string>>& attrs,
                 const std::string& needle) {
  try {
    Params::Parse(op, attrs);
    FAIL() << "no error for " << needle;
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    std::string msg = e.what();
    EXPECT_NE(msg.find("test_params"), std::string::npos) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

TEST(Params, Errors) {
  OpDef op = MakeOp();
  ExpectError(op, {}, "missing required parameter 'shape'");
  ExpectError(op, {{"shape", "(2,)"}, {"axsi", "1"}}, "unknown parameter 'axsi'");
  ExpectError(op, {{"shape", "(2,)"}, {"axis", "one"}}, "'axis'");
  ExpectError(op, {{"shape", "(2,)"}, {"mode", "bogus"}}, "'clip', 'wrap'");
  ExpectError(op, {{"shape", "(2,x)"}}, "'shape'");
  ExpectError(op, {{"shape", "(2,)"}, {"dtype", "float33"}}, "'dtype'");
  ExpectError(op, {{"shape", "(2,)"}, {"flag", "maybe"}}, "True or False");
}

TEST(Base, ShapeAndContextText) {
  EXPECT_EQ(Shape({2, 3}).ToString(), "(2, 3)");
  EXPECT_EQ(Shape({4}).ToString(), "(4,)");
  EXPECT_EQ(Shape::Parse("(2, 3)"), Shape({2, 3}));
  EXPECT_EQ(Shape::Parse("()"), Shape());
  EXPECT_EQ(Context::Parse("cpu(1)"), Context::CPU(1));
  EXPECT_EQ(Context::Parse("cpu:2"), Context::CPU(2));
  EXPECT_THROW(Context::Parse("tpu(0)"), Error);
  EXPECT_THROW(Shape::Parse("(2, x)"), Error);
}

TEST(Base, HalfAndBFloat16) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f, 0.1f}) {
    half_t h(f);
    EXPECT_NEAR(static_cast<float>(h), f, std::abs(f) * 1e-3f + 1e-7f) << f;
  }
  EXPECT_TRUE(std::isinf(static_cast<float>(half_t(1e6f))));
  EXPECT_EQ(half_t(1.0f).bits, 0x3c00);
  EXPECT_EQ(bf16_t(1.0f).bits, 0x3f80);
  EXPECT_FLOAT_EQ(static_cast<float>(bf16_t(3.0f)), 3.0f);
}

// Note [Parse cache]: a hit gives what Parse gives, a bad list raises every
// time (it is never cached), and more distinct lists than the cache holds still
// parse right. The cache keys on the op's address, so the op lives as long as
// the process, as registered ops do.
TEST(Params, ParseCacheAgreesWithParse) {
  static const OpDef op = MakeOp();
  auto cached = [](std::vector<std::pair<const char*, const char*>> kv) {
    std::vector<const char*> keys, vals;
    for (const auto& e : kv) {
      keys.push_back(e.first);
      vals.push_back(e.second);
    }
    return ParseCached(op, static_cast<int>(kv.size()), keys.data(), vals.data());
  };
  for (int round = 0; round < 2; ++round) {  // the second round hits
    Params a = cached({{"shape", "(2, 3)"}, {"scale", "0.5"}});
    EXPECT_EQ(a.GetTuple("shape"), (std::vector<int64_t>{2, 3}));
    EXPECT_DOUBLE_EQ(a.GetFloat("scale"), 0.5);
    EXPECT_EQ(a.raw().size(), 2u);
    Params b = cached({{"shape", "(2, 3)"}, {"scale", "0.25"}});
    EXPECT_DOUBLE_EQ(b.GetFloat("scale"), 0.25);
    Params c = cached({{"scale", "0.5"}, {"shape", "(2, 3)"}});  // another order is another list
    EXPECT_EQ(c.raw()[0].first, "scale");
    EXPECT_THROW(cached({{"shape", "(2, 3)"}, {"scale", "half"}}), Error);
    EXPECT_THROW(cached({{"scale", "0.5"}}), Error);  // 'shape' is required
  }
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 200; ++i) {  // more lists than entries: evictions
      const std::string axis = std::to_string(i);
      Params p = cached({{"shape", "(1,)"}, {"axis", axis.c_str()}});
      ASSERT_EQ(p.GetInt("axis"), i);
    }
  }
}

}  // namespace
}  // namespace weft
